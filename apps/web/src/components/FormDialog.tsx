import type { FormEvent, ReactNode, RefObject } from 'react';
import { Button, CloseButton, Dialog, Portal, Stack } from '@chakra-ui/react';

interface FormDialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  onSubmit?(event: FormEvent): void;
  formRef?: RefObject<HTMLFormElement | null>;
  /** Without it the dialog only shows the fields (read-only view) and a Close button. */
  submitLabel?: string;
  submitting?: boolean;
  children: ReactNode;
}

/** A modal form: Escape or Cancel closes it, focus stays inside while it is open. */
export function FormDialog({ open, title, onClose, onSubmit, formRef, submitLabel, submitting, children }: FormDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onClose()} placement="center" scrollBehavior="inside" size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            {/* display: contents keeps the dialog's own layout (scrolling body between header and footer). */}
            <form ref={formRef} noValidate onSubmit={onSubmit ?? ((event) => event.preventDefault())} style={{ display: 'contents' }}>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">{children}</Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {submitLabel ? 'Cancel' : 'Close'}
                </Button>
                {submitLabel && (
                  <Button type="submit" colorPalette="teal" loading={submitting}>
                    {submitLabel}
                  </Button>
                )}
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close dialog" />
              </Dialog.CloseTrigger>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
