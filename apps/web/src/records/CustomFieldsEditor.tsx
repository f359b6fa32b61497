import { Button, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import type { CustomField } from './types';

interface CustomFieldsEditorProps {
  fields: CustomField[];
  onChange(fields: CustomField[]): void;
  error?: string;
}

/** Custom label/value pairs with add and remove (spec section 3, "Custom field"). */
export function CustomFieldsEditor({ fields, onChange, error }: CustomFieldsEditorProps) {
  const update = (index: number, patch: Partial<CustomField>) => onChange(fields.map((field, i) => (i === index ? { ...field, ...patch } : field)));
  return (
    <Stack gap="2" role="group" aria-label="Custom fields">
      <Text fontWeight="medium" fontSize="sm">
        Custom fields
      </Text>
      {fields.map((field, index) => (
        <HStack key={index} gap="2">
          <Input
            size="sm"
            aria-label={`Label ${index + 1}`}
            placeholder="Label"
            value={field.label}
            onChange={(e) => update(index, { label: e.currentTarget.value })}
          />
          <Input
            size="sm"
            aria-label={`Value ${index + 1}`}
            placeholder="Value"
            value={field.value}
            onChange={(e) => update(index, { value: e.currentTarget.value })}
          />
          <IconButton
            size="sm"
            variant="ghost"
            colorPalette="red"
            aria-label={`Remove field ${index + 1}`}
            onClick={() => onChange(fields.filter((_, i) => i !== index))}
          >
            ✕
          </IconButton>
        </HStack>
      ))}
      <Button size="sm" variant="outline" alignSelf="start" onClick={() => onChange([...fields, { label: '', value: '' }])}>
        Add field
      </Button>
      {error && (
        <Text color="fg.error" fontSize="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}
