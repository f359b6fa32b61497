import { createToaster, Link, Portal, Spinner, Stack, Toast, Toaster } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'react-router-dom';

/** The CSS variable a bar fixed to the bottom of the screen sets to its height, so toasts rise above it. */
export const BOTTOM_BAR_VAR = '--dc-bottom-bar';

/**
 * Message toasts for every screen: `toaster.create({ title, type: 'success' | 'error' | 'info' })`.
 * At the bottom left, above any bottom bar: away from the top bar's controls (Login, the own/all
 * toggle, the profile cog), the Workspace's work area and the buttons of dialogs' footers, which sit
 * at the right. Where one still lies over a control (a phone's full-width dialog), clicks go through
 * it: only its own close button and link take them.
 */
export const toaster = createToaster({
  placement: 'bottom-start',
  duration: 6000, // spec section 9: message toast duration
  pauseOnPageIdle: true,
  offsets: { top: '1rem', left: '1rem', right: '1rem', bottom: `calc(1rem + var(${BOTTOM_BAR_VAR}, 0px))` },
});

/** The login prompts of anonymous visitors (spec section 8: "Please login to …"), which get a "Log in" link. */
export const isLoginPrompt = (title: unknown): boolean => typeof title === 'string' && /^Please login to /.test(title);

/** "Log in", to the Login screen; it carries where the visitor was, as the routes that need a session do. */
function LoginLink({ onFollow }: { onFollow(): void }) {
  const location = useLocation();
  return (
    <Link asChild color="inherit" textDecoration="underline" fontWeight="semibold" fontSize="sm" alignSelf="flex-start">
      <RouterLink style={{ pointerEvents: 'auto' }} to="/login" state={{ from: `${location.pathname}${location.search}` }} onClick={onFollow}>
        Log in
      </RouterLink>
    </Link>
  );
}

export function AppToaster() {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} pointerEvents="none">
            {toast.type === 'loading' ? <Spinner size="sm" color="teal.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
              {isLoginPrompt(toast.title) && <LoginLink onFollow={() => toaster.dismiss(toast.id)} />}
            </Stack>
            {toast.closable !== false && <Toast.CloseTrigger pointerEvents="auto" />}
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
