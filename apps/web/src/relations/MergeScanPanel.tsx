import { useState } from 'react';
import { Alert, Badge, Button, Heading, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { useStartMerge } from '../jobs/use-merge';
import type { MergeCandidate, MergeType } from '../jobs/jobs-api';
import { LINK_NEEDS_TWO } from '../jobs/job-rules';
import { LinkResultView } from './CompareDialog';
import { useLinkDatasets } from './LinkColumnsDialog';
import { MergePreviewDialog } from './MergePreviewDialog';
import { useWorkArea } from './work-area';
import { formatScore } from '../lib/format';
import type { MergeScanResult } from './relations-api';
import { DataTable } from '../components/DataTable';

const CHOOSE_PAIRS = 'Choose the field pairs to merge on.';

/**
 * Merge Scan Results (spec section 2): merge candidates with a score and a field pair, the Linking
 * Columns table, and Merge Horizontal (inner join on the chosen pairs, every other column kept) /
 * Merge Vertical (the chosen paired columns stacked, only those) / Cancel, each merge a background
 * job, started from a preview of what it will make (name, columns, rows); Link starts a LINK job for
 * a pair of records with linking columns (pairing the columns when their hashed ones are named apart).
 */
export function MergeScanPanel({ result, onCancel }: { result: MergeScanResult; onCancel(): void }) {
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const merge = useStartMerge();
  const { link, dialog: linkColumns } = useLinkDatasets();
  // The merge asked for, shown as a preview until the user starts it.
  const [previewing, setPreviewing] = useState<{ relations: MergeCandidate[]; mergeType: MergeType } | null>(null);
  // Linking pairs rows on hashed columns: both records need some (the work area knows their enc_headers).
  const area = useWorkArea();
  const hashed = (id: string) => (area.records.find((r) => r.id === id)?.enc_headers?.length ?? 0) > 0;
  const preview = (mergeType: MergeType) => setPreviewing({ relations: result.merge_relations.filter((m) => chosen.has(m.id)), mergeType });
  const start = () => previewing && merge.mutate(previewing, { onSuccess: () => setPreviewing(null) });
  const merging = (mergeType: MergeType) => merge.isPending && merge.variables?.mergeType === mergeType;
  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Stack as="section" aria-label="Merge Scan Results" gap="4" data-testid="merge-scan-results">
      <HStack justify="space-between" wrap="wrap">
        <Heading as="h2" size="lg">
          Merge Scan Results
        </Heading>
        <HStack gap="2" wrap="wrap">
          <Button
            size="sm"
            colorPalette="teal"
            disabled={chosen.size === 0 || merge.isPending}
            loading={merging('horizontal')}
            title={chosen.size === 0 ? CHOOSE_PAIRS : 'See what an inner join on the chosen fields will make, then start it'}
            onClick={() => preview('horizontal')}
          >
            Merge Horizontal
          </Button>
          <Button
            size="sm"
            colorPalette="teal"
            variant="outline"
            disabled={chosen.size === 0 || merge.isPending}
            loading={merging('vertical')}
            title={chosen.size === 0 ? CHOOSE_PAIRS : 'See what stacking the chosen paired columns will make, then start it'}
            onClick={() => preview('vertical')}
          >
            Merge Vertical
          </Button>
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </HStack>
      </HStack>
      {result.messages.map((message) => (
        <Alert.Root key={message} status="warning" size="sm">
          <Alert.Indicator />
          <Alert.Title>{message}</Alert.Title>
        </Alert.Root>
      ))}
      {result.merge_relations.length === 0 ? (
        <Text color="fg.muted" data-testid="merge-scan-empty">
          No fields of these records are alike enough to merge.
        </Text>
      ) : (
        <DataTable label="Merge candidates" headers={[{ header: null, w: '8' }, 'Score', 'Record', 'Field', 'Record', 'Field']}>
          {result.merge_relations.map((m) => (
            <Table.Row key={m.id} data-testid="merge-candidate">
              <Table.Cell>
                <input type="checkbox" aria-label={`Choose ${m.header_left} and ${m.header_right}`} checked={chosen.has(m.id)} onChange={() => toggle(m.id)} />
              </Table.Cell>
              <Table.Cell>
                <Badge colorPalette={m.total_sim >= 0.8 ? 'green' : 'yellow'}>{formatScore(m.total_sim)}</Badge>
              </Table.Cell>
              <Table.Cell>{m.record_left_name}</Table.Cell>
              <Table.Cell>{m.header_left}</Table.Cell>
              <Table.Cell>{m.record_right_name}</Table.Cell>
              <Table.Cell>{m.header_right}</Table.Cell>
            </Table.Row>
          ))}
        </DataTable>
      )}
      {result.linking_columns.length > 0 && (
        <Stack gap="3" data-testid="linking-columns">
          <Heading as="h3" size="md">
            Linking Columns
          </Heading>
          {result.linking_columns.map((columns) => (
            <Stack key={`${columns.record_left}-${columns.record_right}`} gap="1" borderWidth="1px" borderRadius="md" p="3">
              <HStack justify="space-between" gap="2" wrap="wrap">
                <Text fontWeight="medium">
                  {columns.record_left_name} ↔ {columns.record_right_name}
                </Text>
                <Button
                  size="xs"
                  colorPalette="purple"
                  variant="outline"
                  loading={link.isPending && link.variables?.left === columns.record_left && link.variables.right === columns.record_right}
                  disabled={!hashed(columns.record_left) || !hashed(columns.record_right)}
                  title={hashed(columns.record_left) && hashed(columns.record_right) ? 'Start a link job on their hashed columns' : LINK_NEEDS_TWO}
                  aria-label={`Link ${columns.record_left_name} and ${columns.record_right_name}`}
                  onClick={() => link.mutate({ left: columns.record_left, right: columns.record_right })}
                >
                  Link
                </Button>
              </HStack>
              <LinkResultView data={columns} />
            </Stack>
          ))}
        </Stack>
      )}
      <MergePreviewDialog request={previewing} starting={merge.isPending} onStart={start} onClose={() => setPreviewing(null)} />
      {linkColumns}
    </Stack>
  );
}
