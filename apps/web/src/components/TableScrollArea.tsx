import { Table, type TableScrollAreaProps } from '@chakra-ui/react';

/**
 * A table's scrolling box that keyboard users can scroll too: it takes the focus (with a visible
 * ring) and is a named region, as axe-core's scrollable-region-focusable rule asks.
 */
export function TableScrollArea({ label, ...props }: TableScrollAreaProps & { label: string }) {
  return <Table.ScrollArea tabIndex={0} role="region" aria-label={label} focusVisibleRing="outside" borderWidth="1px" borderRadius="md" {...props} />;
}
