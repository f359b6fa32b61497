import { Box, Button, CloseButton, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { toaster } from '../shell/toaster';
import { truncate } from '../lib/format';
import { canLink, LINK_NEEDS_TWO } from '../jobs/job-rules';
import { RunningJobs } from '../jobs/RunningJobs';
import { LOGIN_TO_LINK } from '../shared/card-rules';
import { relationKeys } from '../shared/query-keys';
import { useSharedState } from '../shared/use-shared-state';
import { CompareDialog } from './CompareDialog';
import { useLinkDatasets } from './LinkColumnsDialog';
import { useRecordDropTarget, useWorkArea, type WorkAreaRecord } from './work-area';

export const LOGIN_TO_SCAN = 'Please login to scan for merges.';
export const COMPARE_NEEDS_TWO = 'The comparison of records needs exactly 2 records in the bin.';

/**
 * The Workspace's work area (spec: a drag-and-drop bin for merge and link operations): drop record
 * cards in, remove them one by one or with Clear, Compare exactly two, Scan to Merge more than one,
 * Link Datasets for exactly two with hashed columns; running jobs show as a mosaic of progress bars.
 */
export function WorkAreaPanel({ signedIn, onScan, scanning }: { signedIn: boolean; onScan(records: WorkAreaRecord[]): void; scanning: boolean }) {
  const area = useWorkArea();
  const { over, dropProps } = useRecordDropTarget();
  // Shared state: the dialog stays open when the work area moves between the side and the bottom bar.
  const [comparing, setComparingState] = useSharedState<[WorkAreaRecord, WorkAreaRecord] | null>(relationKeys.comparing, null);
  const setComparing = (next: [WorkAreaRecord, WorkAreaRecord] | null) => setComparingState(() => next);
  // Records naming their hashed columns differently get the column pairing instead of an error.
  const { link, dialog: linkColumns } = useLinkDatasets();
  const linkable = canLink(area.records);

  function linkDatasets() {
    if (!signedIn) toaster.create({ type: 'warning', title: LOGIN_TO_LINK });
    else if (linkable) link.mutate({ left: area.records[0].id, right: area.records[1].id });
  }

  return (
    <Stack
      as="aside"
      aria-label="Work area"
      data-testid="work-area"
      gap="3"
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={over ? 'teal.solid' : 'border'}
      bg={over ? 'teal.subtle' : undefined}
      borderRadius="md"
      p="3"
      minH="40"
      {...dropProps}
    >
      <Heading as="h2" size="sm">
        Work area
      </Heading>
      {area.records.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          Drag records here (or use a card's Process button) to compare, scan for merges and link them.
        </Text>
      ) : (
        <Stack as="ul" gap="1" data-testid="work-area-list">
          {area.records.map((record) => (
            <HStack
              as="li"
              key={record.id}
              justify="space-between"
              gap="2"
              fontSize="sm"
              draggable
              onDragEnd={(event) => event.dataTransfer.dropEffect === 'none' && area.remove(record.id)}
            >
              <Text truncate title={record.enc_headers?.length ? `${record.name} (hashed columns: ${record.enc_headers.join(', ')})` : record.name}>
                {truncate(record.name, 50)}
              </Text>
              <CloseButton size="2xs" aria-label={`Remove ${record.name} from the work area`} onClick={() => area.remove(record.id)} />
            </HStack>
          ))}
        </Stack>
      )}
      <HStack gap="2" wrap="wrap">
        {area.records.length > 1 && (
          <Button
            size="xs"
            colorPalette="teal"
            loading={scanning}
            onClick={() => {
              if (!signedIn) toaster.create({ type: 'warning', title: LOGIN_TO_SCAN });
              else onScan(area.records);
            }}
          >
            Scan to Merge
          </Button>
        )}
        <Button
          size="xs"
          variant="outline"
          disabled={area.records.length !== 2}
          title={area.records.length !== 2 ? COMPARE_NEEDS_TWO : undefined}
          onClick={() => area.records.length === 2 && setComparing([area.records[0], area.records[1]])}
        >
          Compare
        </Button>
        <Button
          size="xs"
          colorPalette="purple"
          variant="outline"
          // Anonymous visitors may press it to hear that linking needs a login.
          disabled={signedIn && !linkable}
          title={signedIn && !linkable ? LINK_NEEDS_TWO : undefined}
          loading={link.isPending}
          onClick={linkDatasets}
        >
          Link Datasets
        </Button>
        <Button size="xs" variant="ghost" disabled={area.records.length === 0} onClick={area.clear}>
          Clear
        </Button>
      </HStack>
      {signedIn && <RunningJobs />}
      <Box>
        <CompareDialog records={comparing} onClose={() => setComparing(null)} />
        {linkColumns}
      </Box>
    </Stack>
  );
}
