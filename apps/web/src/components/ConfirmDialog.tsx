import { useRef, type ReactNode } from 'react';
import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The question, e.g. "Are you sure you want to delete this account?" (spec section 5). */
  message: string;
  confirmLabel: string;
  /** Red by default (destructive actions). */
  confirmPalette?: string;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
  /** Shown under the question, e.g. why the last attempt failed. */
  children?: ReactNode;
}

/** An alert dialog asking before a destructive action; Cancel has the focus first. */
export function ConfirmDialog({ open, title, message, confirmLabel, confirmPalette = 'red', busy, onConfirm, onCancel, children }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(details) => !details.open && onCancel()}
      initialFocusEl={() => cancelRef.current}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Dialog.Description asChild>
                  <Text>{message}</Text>
                </Dialog.Description>
                {children}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button ref={cancelRef} variant="outline" onClick={onCancel}>
                Cancel
              </Button>
              <Button colorPalette={confirmPalette} loading={busy} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
