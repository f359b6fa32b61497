import type { ReactNode } from 'react';
import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';

interface ModalFrameProps {
  open: boolean;
  onClose(): void;
  size?: 'md' | 'lg' | 'xl';
  placement?: 'center';
  /** The content's data-testid. */
  testId?: string;
  children: ReactNode;
}

/** A modal's frame: backdrop and positioner around its content, closed by Escape or a click outside; its body scrolls. */
export function ModalFrame({ open, onClose, size, placement, testId, children }: ModalFrameProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && onClose()} placement={placement} scrollBehavior="inside" size={size}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>{children}</Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

interface ModalSectionsProps {
  title: ReactNode;
  onClose(): void;
  /** The name of the corner close button; Chakra's own is "Close". */
  closeLabel?: string;
  /** Footer buttons before the Close button. */
  before?: ReactNode;
  /** Footer buttons after the Close button. */
  after?: ReactNode;
  children: ReactNode;
}

/** A modal's header with its title, its body, a footer with a Close button, and the corner close button. */
export function ModalSections({ title, onClose, closeLabel = 'Close', before, after, children }: ModalSectionsProps) {
  return (
    <>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>{children}</Dialog.Body>
      <Dialog.Footer>
        {before}
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        {after}
      </Dialog.Footer>
      <Dialog.CloseTrigger asChild>
        <CloseButton size="sm" aria-label={closeLabel} />
      </Dialog.CloseTrigger>
    </>
  );
}

/** A modal with a title, a body and a Close button: {@link ModalFrame} around {@link ModalSections}. */
export function ModalDialog({ open, onClose, size, placement, testId, ...sections }: Omit<ModalFrameProps, 'children'> & Omit<ModalSectionsProps, 'onClose'>) {
  return (
    <ModalFrame open={open} onClose={onClose} size={size} placement={placement} testId={testId}>
      <ModalSections onClose={onClose} {...sections} />
    </ModalFrame>
  );
}
