import { Button, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { DeleteIcon } from '../components/icons';

export interface Row {
  label: string;
  text: string;
}

/** Extra label/text rows with add and remove buttons (the group modal's additional fields). */
export function FieldRows({
  rows,
  onChange,
  labelName = 'Label',
  textName = 'Text',
  addLabel = 'Add field',
}: {
  rows: Row[];
  onChange(rows: Row[]): void;
  labelName?: string;
  textName?: string;
  addLabel?: string;
}) {
  const set = (index: number, row: Partial<Row>) => onChange(rows.map((r, i) => (i === index ? { ...r, ...row } : r)));
  return (
    <Stack gap="2">
      {rows.length === 0 && (
        <Text fontSize="sm" color="fg.muted">
          No additional fields.
        </Text>
      )}
      {rows.map((row, index) => (
        <HStack key={index} gap="2">
          <Input
            size="sm"
            aria-label={`${labelName} ${index + 1}`}
            placeholder={labelName}
            value={row.label}
            onChange={(e) => set(index, { label: e.target.value })}
          />
          <Input
            size="sm"
            aria-label={`${textName} ${index + 1}`}
            placeholder={textName}
            value={row.text}
            onChange={(e) => set(index, { text: e.target.value })}
          />
          <IconButton size="sm" variant="ghost" aria-label={`Remove field ${index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
            <DeleteIcon />
          </IconButton>
        </HStack>
      ))}
      <Button size="xs" variant="outline" alignSelf="start" onClick={() => onChange([...rows, { label: '', text: '' }])}>
        {addLabel}
      </Button>
    </Stack>
  );
}
