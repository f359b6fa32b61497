import { useCallback, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';

/** Client-side messages per field name. */
export type FieldMessages = Partial<Record<string, string>>;

/** Any thrown value as an ApiError, so screens show every failure the same way. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, {}, [], error instanceof Error ? error.message : undefined);
}

/**
 * State of one form: its values, the client-side validation messages and the server's answer.
 * A field shows its client message first, else the server's first message for that field.
 * After a failed submit the first invalid field gets the focus, so keyboard users land on it.
 */
export function useForm<T extends Record<string, string>>(initial: T, validate: (values: T) => FieldMessages = () => ({})) {
  const [values, setValues] = useState<T>(initial);
  const [clientErrors, setClientErrors] = useState<FieldMessages>({});
  const [serverError, setServerError] = useState<ApiError | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Fields changed since the last answer of the server: its message about them is out of date.
  const [editedSinceServer, setEditedSinceServer] = useState<ReadonlySet<string>>(new Set());
  const formRef = useRef<HTMLFormElement>(null);

  const focusFirstInvalid = useCallback(() => {
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('input[aria-invalid="true"], textarea[aria-invalid="true"]')?.focus();
    });
  }, []);

  const setValue = useCallback((name: keyof T & string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    // A message about a value the user has since changed would be stale.
    setClientErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
    setEditedSinceServer((current) => (current.has(name) ? current : new Set(current).add(name)));
  }, []);

  const errorOf = (name: keyof T & string): string | undefined =>
    clientErrors[name] ?? (editedSinceServer.has(name) ? undefined : serverError?.fieldError(name));

  /** Props for a TextField bound to one value. */
  const field = (name: keyof T & string) => ({
    name,
    value: values[name],
    onChange: (value: string) => setValue(name, value),
    error: errorOf(name),
  });

  /** Validates, then runs the action; a thrown error becomes the form's server error. */
  const handleSubmit = (action: (values: T) => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const messages = validate(values);
    setClientErrors(messages);
    setServerError(null);
    setEditedSinceServer(new Set());
    if (Object.values(messages).some(Boolean)) {
      focusFirstInvalid();
      return;
    }
    setSubmitting(true);
    try {
      await action(values);
    } catch (error) {
      setServerError(toApiError(error));
      focusFirstInvalid();
    } finally {
      setSubmitting(false);
    }
  };

  // `initial` is a fresh object on each render; reset goes back to the first one unless given another.
  const initialRef = useRef(initial);
  const reset = useCallback((next?: T) => {
    setValues(next ?? initialRef.current);
    setClientErrors({});
    setServerError(null);
    setEditedSinceServer(new Set());
  }, []);

  return { values, setValues, setValue, field, errorOf, serverError, setServerError, submitting, handleSubmit, reset, formRef };
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Message when a required value is blank. */
export function requiredMessage(value: string, message: string): string | undefined {
  return value.trim() ? undefined : message;
}
