import { useEffect, useRef, useState } from 'react';
import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { WorkAreaPanel } from '../relations/WorkAreaPanel';
import { useRecordDropTarget, useWorkArea, type WorkAreaRecord } from '../relations/work-area';
import { recordCountLabel } from '../shared/card-rules';
import { BOTTOM_BAR_VAR } from '../shell/toaster';

const SHEET_ID = 'work-area-sheet';
const OPEN_KEY = 'dc.workAreaOpen';

/** Open unless the user closed it in this tab; on a phone closed until the user opens it. */
function readOpen(compact: boolean): boolean {
  try {
    const saved = sessionStorage.getItem(OPEN_KEY);
    return saved === null ? !compact : saved === 'true';
  } catch {
    return !compact;
  }
}

interface WorkAreaDockProps {
  signedIn: boolean;
  onScan(records: WorkAreaRecord[]): void;
  scanning: boolean;
  /** A phone: the work area opens over the list, so it starts closed and closes again for a scan's results. */
  compact: boolean;
}

/**
 * The work area where the Workspace is too narrow to keep it beside three columns of cards (a phone,
 * or a laptop with the sidebar open): a bar held at the bottom of the screen that says how many
 * records are in the work area, takes dropped cards, and opens the work area above itself. Open by
 * default on a laptop or tablet, closed on a phone; the user's choice holds for the tab's session.
 */
export function WorkAreaDock({ signedIn, onScan, scanning, compact }: WorkAreaDockProps) {
  const area = useWorkArea();
  const [open, setOpenState] = useState(() => readOpen(compact));
  const { over, dropProps } = useRecordDropTarget();
  const toggle = useRef<HTMLButtonElement>(null);
  const dock = useRef<HTMLDivElement | null>(null);
  const count = area.records.length;

  // Toasts rise above the bar (and above the open work area) instead of covering it: by as much of it as is on the screen.
  useEffect(() => {
    const root = document.documentElement;
    const update = () => {
      const top = dock.current?.getBoundingClientRect().top;
      if (top !== undefined) root.style.setProperty(BOTTOM_BAR_VAR, `${Math.max(0, Math.ceil(window.innerHeight - top))}px`);
    };
    update();
    // The bar moves when it or the page changes size (opened, cards loaded) or the page scrolls.
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    if (dock.current) observer.observe(dock.current);
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
      observer.disconnect();
      root.style.removeProperty(BOTTOM_BAR_VAR);
    };
  }, []);

  function setOpen(next: boolean) {
    setOpenState(next);
    try {
      sessionStorage.setItem(OPEN_KEY, String(next));
    } catch {
      // Only this page keeps it.
    }
  }

  function close() {
    setOpen(false);
    toggle.current?.focus();
  }

  return (
    <Box
      ref={dock}
      data-testid="work-area-dock"
      position="sticky"
      bottom="0"
      zIndex="docked"
      mx={{ base: '-4', md: '-8' }}
      bg="bg.panel"
      borderTopWidth="1px"
      shadow="0 -4px 12px rgba(0, 0, 0, 0.08)"
      onKeyDown={(event) => {
        // Escape inside the open work area (not in a dialog it opened, which lives elsewhere in the page) closes it.
        if (event.key === 'Escape' && open && dock.current?.contains(event.target as Node)) close();
      }}
    >
      {open && (
        <Box id={SHEET_ID} maxH={compact ? '60vh' : '45vh'} overflowY="auto" px={{ base: '3', md: '6' }} pt="3">
          <WorkAreaPanel
            signedIn={signedIn}
            scanning={scanning}
            onScan={(records) => {
              // On a phone the scan's results, which replace the list, would be under the work area.
              if (compact) setOpen(false);
              onScan(records);
            }}
          />
        </Box>
      )}
      <HStack px={{ base: '3', md: '6' }} py="2" gap="3" bg={over ? 'teal.subtle' : undefined} {...dropProps}>
        <Button
          ref={toggle}
          size="sm"
          colorPalette="teal"
          variant={count > 0 ? 'solid' : 'outline'}
          aria-expanded={open}
          aria-controls={open ? SHEET_ID : undefined}
          onClick={() => (open ? close() : setOpen(true))}
        >
          Work area: {recordCountLabel(count)}
          <Text as="span" aria-hidden ms="1">
            {open ? '▾' : '▴'}
          </Text>
        </Button>
        <Text fontSize="sm" color="fg.muted" truncate display={{ base: 'none', sm: 'block' }}>
          {open ? 'Compare, scan for merges and link the records in it.' : 'Drop cards here, or use a card’s Process button.'}
        </Text>
      </HStack>
    </Box>
  );
}
