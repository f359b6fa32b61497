import { Alert, List } from '@chakra-ui/react';
import type { ApiError } from '../api/client';

interface ServerErrorAlertProps {
  error: ApiError | null | undefined;
  /** Fields the form shows under their inputs; their errors are not repeated here. */
  shownFields?: readonly string[];
  /** Login and password reset show only the first message (spec section 8, "Handling"). */
  firstOnly?: boolean;
  title?: string;
}

/** The messages of a failed call that belong to no visible field: non-field errors, detail, others. */
export function serverMessages(error: ApiError, shownFields: readonly string[] = []): string[] {
  const messages = [...error.nonFieldErrors];
  if (error.detail) messages.push(error.detail);
  for (const [field, fieldMessages] of Object.entries(error.fieldErrors)) {
    if (!shownFields.includes(field)) messages.push(...fieldMessages);
  }
  // Nothing structured (a network failure or an HTML error page): the generic message.
  if (messages.length === 0 && Object.keys(error.fieldErrors).length === 0) messages.push(error.message);
  return messages;
}

export function ServerErrorAlert({ error, shownFields, firstOnly, title }: ServerErrorAlertProps) {
  if (!error) return null;
  const messages = serverMessages(error, shownFields);
  if (messages.length === 0) return null;
  const shown = firstOnly ? messages.slice(0, 1) : messages;
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        {title && <Alert.Title>{title}</Alert.Title>}
        {shown.length === 1 && !title ? (
          <Alert.Title>{shown[0]}</Alert.Title>
        ) : (
          <Alert.Description>
            {shown.length === 1 ? (
              shown[0]
            ) : (
              <List.Root ps="4">
                {shown.map((message) => (
                  <List.Item key={message}>{message}</List.Item>
                ))}
              </List.Root>
            )}
          </Alert.Description>
        )}
      </Alert.Content>
    </Alert.Root>
  );
}
