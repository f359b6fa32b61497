import { Field, NativeSelect } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  /** [label, code] pairs (lists of two strings, as the Records calls answer them). */
  options: ReadonlyArray<readonly string[]>;
  disabled?: boolean;
  error?: string;
  helperText?: ReactNode;
}

/** A labelled native select over [label, code] pairs (the shape the Records calls answer). */
export function SelectField({ label, name, value, onChange, options, disabled, error, helperText }: SelectFieldProps) {
  return (
    <Field.Root invalid={!!error} disabled={disabled}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          {options.map(([text, code]) => (
            <option key={code} value={code}>
              {text}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {helperText && <Field.HelperText>{helperText}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
