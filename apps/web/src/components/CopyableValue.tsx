import { Field, IconButton, Input, InputGroup, Clipboard } from '@chakra-ui/react';

/** A read-only value with a copy button (API credentials, webhook signing secrets). */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  return (
    <Field.Root readOnly>
      <Field.Label>{label}</Field.Label>
      <InputGroup
        endElement={
          <Clipboard.Root value={value}>
            <Clipboard.Trigger asChild>
              <IconButton variant="ghost" size="xs" me="-2" aria-label={`Copy ${label}`}>
                <Clipboard.Indicator />
              </IconButton>
            </Clipboard.Trigger>
          </Clipboard.Root>
        }
      >
        <Input value={value} readOnly fontFamily="mono" fontSize="sm" bg="bg.muted" />
      </InputGroup>
    </Field.Root>
  );
}
