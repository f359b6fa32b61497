import type { ReactNode } from 'react';
import { Field, Input, Textarea } from '@chakra-ui/react';

export interface TextFieldProps {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  /** The message shown under the field; makes it invalid. */
  error?: string;
  helperText?: ReactNode;
  required?: boolean;
  readOnly?: boolean;
  disabled?: boolean;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  placeholder?: string;
  multiline?: boolean;
}

/** A labelled input with its helper text and error message, wired for screen readers by Field. */
export function TextField({
  label,
  name,
  value,
  onChange,
  error,
  helperText,
  required,
  readOnly,
  disabled,
  type = 'text',
  autoComplete,
  placeholder,
  multiline,
}: TextFieldProps) {
  const control = {
    name,
    value,
    placeholder,
    autoComplete,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
    ...(readOnly ? { bg: 'bg.muted', cursor: 'default' } : {}),
  };
  return (
    <Field.Root required={required} invalid={!!error} readOnly={readOnly} disabled={disabled}>
      <Field.Label>
        {label}
        {!readOnly && <Field.RequiredIndicator />}
      </Field.Label>
      {multiline ? <Textarea {...control} rows={4} autoresize /> : <Input {...control} type={type} />}
      {helperText && <Field.HelperText>{helperText}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
