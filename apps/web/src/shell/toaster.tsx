import { createToaster, Portal, Spinner, Stack, Toast, Toaster } from '@chakra-ui/react';

/** Message toasts for every screen: `toaster.create({ title, type: 'success' | 'error' | 'info' })`. */
export const toaster = createToaster({
  placement: 'top-end',
  duration: 6000, // spec section 9: message toast duration
  pauseOnPageIdle: true,
});

export function AppToaster() {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            {toast.type === 'loading' ? <Spinner size="sm" color="teal.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable !== false && <Toast.CloseTrigger />}
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
