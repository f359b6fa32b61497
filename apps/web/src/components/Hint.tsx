import type { ReactElement, ReactNode } from 'react';
import { Portal, Tooltip } from '@chakra-ui/react';

/**
 * A visible tooltip for an icon-only control, shown on hover and on keyboard focus. The control
 * keeps its own accessible name (aria-label); the tooltip says the same in words for sighted users.
 */
export function Hint({ label, children }: { label: ReactNode; children: ReactElement }) {
  return (
    <Tooltip.Root openDelay={300} closeDelay={100} positioning={{ placement: 'top' }}>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content maxW="xs">{label}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
