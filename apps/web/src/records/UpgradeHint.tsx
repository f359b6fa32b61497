import type { ReactNode } from 'react';
import { Box, Link, Text, Tooltip, Portal } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';

export const UPGRADE_TEXT = 'Upgrade your plan to choose who sees your records and to assign access policies.';

/** Wraps a control disabled for BASIC clients: a tooltip on hover and a visible upgrade link (#/indexdata). */
export function UpgradeHint({ active, children }: { active: boolean; children: ReactNode }) {
  if (!active) return <>{children}</>;
  return (
    <Box>
      <Tooltip.Root openDelay={200} positioning={{ placement: 'top-start' }}>
        <Tooltip.Trigger asChild>
          {/* Disabled controls get no pointer events; the wrapper receives the hover. */}
          <Box>{children}</Box>
        </Tooltip.Trigger>
        <Portal>
          <Tooltip.Positioner>
            <Tooltip.Content>{UPGRADE_TEXT}</Tooltip.Content>
          </Tooltip.Positioner>
        </Portal>
      </Tooltip.Root>
      <Text fontSize="xs" color="fg.muted" mt="1">
        Not available on your plan.{' '}
        <Link asChild colorPalette="teal">
          <RouterLink to="/indexdata">Upgrade</RouterLink>
        </Link>
      </Text>
    </Box>
  );
}
