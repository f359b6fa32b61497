import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, CloseButton, Dialog, Heading, HStack, Portal, Stack, Table, Text } from '@chakra-ui/react';
import { LoadingState } from '../components/LoadingState';
import { formatDate, formatSize } from '../lib/format';
import {
  FIRST_SHOWN,
  formatNrmsd,
  formatScore,
  type JoiningResult,
  type Linkability,
  type LinkabilityResult,
  type MatchingHeader,
  RANGE_ERROR,
  relationErrorText,
  relationsApi,
  type SemanticsResult,
  type StatisticsResult,
  type StructuresResult,
} from './relations-api';
import type { WorkAreaRecord } from './work-area';
import { TableScrollArea } from '../components/TableScrollArea';

type Status<T> = { state: 'idle' } | { state: 'loading' } | { state: 'done'; data: T } | { state: 'error'; message: string };

/** One relation computed on demand: a button, then a loading state, then the result or the error text. */
function useRelation<T>() {
  const [status, setStatus] = useState<Status<T>>({ state: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  async function run(call: (signal: AbortSignal) => Promise<T>) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setStatus({ state: 'loading' });
    try {
      const data = await call(abort.signal);
      if (!abort.signal.aborted) setStatus({ state: 'done', data });
    } catch (error) {
      if (!abort.signal.aborted) setStatus({ state: 'error', message: relationErrorText(error) });
    }
  }
  return { status, run };
}

function RelationSection<T>({
  title,
  testId,
  status,
  onCompute,
  children,
  controls,
}: {
  title: string;
  testId: string;
  status: Status<T>;
  onCompute(): void;
  children(data: T): ReactNode;
  controls?: ReactNode;
}) {
  return (
    <Stack as="section" aria-label={title} gap="2" borderWidth="1px" borderRadius="md" p="3" data-testid={testId}>
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Heading as="h3" size="sm">
          {title}
        </Heading>
        <Button size="xs" colorPalette="teal" variant="outline" onClick={onCompute} loading={status.state === 'loading'}>
          {status.state === 'done' ? 'Compute again' : 'Compute'}
        </Button>
      </HStack>
      {controls}
      {status.state === 'loading' && <LoadingState label={`Computing ${title.toLowerCase()}…`} />}
      {status.state === 'error' && (
        <Text color="fg.error" role="alert">
          {status.message}
        </Text>
      )}
      {status.state === 'done' && children(status.data)}
    </Stack>
  );
}

/** The first 10 rows, and a button that shows them all (spec section 9). */
function FirstTen<T>({ items, children }: { items: T[]; children(items: T[]): ReactNode }) {
  const [all, setAll] = useState(false);
  return (
    <Stack gap="1">
      {children(all ? items : items.slice(0, FIRST_SHOWN))}
      {items.length > FIRST_SHOWN && (
        <Button size="xs" variant="ghost" alignSelf="start" onClick={() => setAll(!all)}>
          {all ? `Show the first ${FIRST_SHOWN}` : `Show all ${items.length}`}
        </Button>
      )}
    </Stack>
  );
}

function SimpleTable({ label, columns, rows }: { label: string; columns: string[]; rows: ReactNode[][] }) {
  return (
    <TableScrollArea label={label} maxH="64">
      <Table.Root size="sm" aria-label={label}>
        <Table.Header>
          <Table.Row>
            {columns.map((c) => (
              <Table.ColumnHeader key={c}>{c}</Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((cells, i) => (
            <Table.Row key={i}>
              {cells.map((cell, j) => (
                <Table.Cell key={j}>{cell}</Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScrollArea>
  );
}

/** Why values took no part in a relation (a record the viewer may not download), if they did not. */
function ValuesMessage({ message }: { message: string | null }) {
  return message ? (
    <Text fontSize="sm" color="fg.muted" data-testid="values-withheld">
      {message}
    </Text>
  ) : null;
}

/** A share of values found, or a dash where the values were not compared (header and type only). */
const foundShare = (pair: MatchingHeader, share: number) => (pair.values_compared ? `${Math.round(share * 100)} %` : '–');

export function LinkResultView({ data }: { data: Linkability }) {
  return (
    <Stack gap="2">
      <Text fontSize="sm">
        Link score {formatScore(data.link_score)} · total rows {data.tot_rows.left} / {data.tot_rows.right}
        {data.estimated ? ' · estimated from column sketches' : ''}
      </Text>
      {data.message && (
        <Text fontSize="sm" color="fg.muted">
          {data.message}
        </Text>
      )}
      {data.matches.length > 0 && (
        <SimpleTable
          label="Matches per column"
          columns={['Column', 'Column', 'Total matches']}
          rows={data.matches.map((m) => [m.column_left, m.column_right, m.total_matches])}
        />
      )}
      {data.rows.length > 0 && (
        <SimpleTable
          label="Row pairs"
          columns={['Row A', 'Row B', 'Fields', 'Probability']}
          rows={data.rows.map((r) => [
            r.rowA + 1,
            r.rowB + 1,
            r.fieldsA.map((f, i) => (f === r.fieldsB[i] ? f : `${f} = ${r.fieldsB[i]}`)).join(', '),
            formatScore(r.rows_match_prob),
          ])}
        />
      )}
    </Stack>
  );
}

/** The Record comparison modal (spec section 2): each relation computed on demand. */
export function CompareDialog({ records, onClose }: { records: [WorkAreaRecord, WorkAreaRecord] | null; onClose(): void }) {
  return (
    <Dialog.Root open={!!records} onOpenChange={(details) => !details.open && onClose()} size="xl" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="compare-dialog">
            <Dialog.Header>
              <Dialog.Title>Compare records</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{records && <Comparison key={`${records[0].id}-${records[1].id}`} left={records[0]} right={records[1]} />}</Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function Comparison({ left, right }: { left: WorkAreaRecord; right: WorkAreaRecord }) {
  const semantics = useRelation<SemanticsResult>();
  const structures = useRelation<StructuresResult>();
  const statistics = useRelation<StatisticsResult>();
  const joining = useRelation<JoiningResult>();
  const linkability = useRelation<LinkabilityResult>();
  const [min, setMin] = useState(0);
  const [max, setMax] = useState(1);
  const rangeError = max < min ? RANGE_ERROR : null;
  const [a, b] = [left.id, right.id];

  return (
    <Stack gap="4">
      <SimpleTable
        label="Compared records"
        columns={['', left.name, right.name]}
        rows={[
          ['Type', left.type || 'N/A', right.type || 'N/A'],
          ['Size', formatSize(left.size), formatSize(right.size)],
          ['Changed', formatDate(left.date_changed), formatDate(right.date_changed)],
        ]}
      />
      <RelationSection
        title="Semantic Relations"
        testId="relation-semantics"
        status={semantics.status}
        onCompute={() => !rangeError && void semantics.run((signal) => relationsApi.semantics(a, b, { min, max }, signal))}
        controls={
          <Stack gap="1">
            <HStack gap="4" wrap="wrap" fontSize="sm">
              <label>
                Minimum {min.toFixed(2)}{' '}
                <input type="range" min={0} max={1} step={0.01} value={min} onChange={(e) => setMin(Number(e.target.value))} aria-label="Minimum similarity" />
              </label>
              <label>
                Maximum {max.toFixed(2)}{' '}
                <input type="range" min={0} max={1} step={0.01} value={max} onChange={(e) => setMax(Number(e.target.value))} aria-label="Maximum similarity" />
              </label>
            </HStack>
            {rangeError && (
              <Text color="fg.error" fontSize="sm" role="alert">
                {rangeError}
              </Text>
            )}
          </Stack>
        }
      >
        {(data) => (
          <Stack gap="2">
            <Text fontSize="sm">Semantic score {formatScore(data.sem_score)}</Text>
            {data.sim_words.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                No similar words in this range.
              </Text>
            ) : (
              <FirstTen items={data.sim_words}>
                {(items) => (
                  <SimpleTable
                    label="Similar words"
                    columns={['Word', 'Word', 'Similarity']}
                    rows={items.map((w) => [w.word_left, w.word_right, formatScore(w.score)])}
                  />
                )}
              </FirstTen>
            )}
          </Stack>
        )}
      </RelationSection>
      <RelationSection
        title="Structural Relations"
        testId="relation-structures"
        status={structures.status}
        onCompute={() => void structures.run((signal) => relationsApi.structures(a, b, signal))}
      >
        {(data) => (
          <Stack gap="2">
            <Text fontSize="sm">Structural score {formatScore(data.struct_score)}</Text>
            {data.struct_types.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                No columns share a data type.
              </Text>
            ) : (
              <SimpleTable
                label="Columns sharing data types"
                columns={['Type', left.name, right.name]}
                rows={data.struct_types.map((t) => [<Badge key="t">{t.type}</Badge>, t.headers_left.join(', '), t.headers_right.join(', ')])}
              />
            )}
          </Stack>
        )}
      </RelationSection>
      <RelationSection
        title="Statistical Relations"
        testId="relation-statistics"
        status={statistics.status}
        onCompute={() => void statistics.run((signal) => relationsApi.statistics(a, b, signal))}
      >
        {(data) => (
          <Stack gap="2">
            {data.stats_mtx.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                No numeric columns with an NRMSD under 10.
              </Text>
            ) : (
              <FirstTen items={data.stats_mtx}>
                {(items) => (
                  <SimpleTable
                    label="NRMSD between columns"
                    columns={[left.name, right.name, 'NRMSD']}
                    rows={items.map((m) => [m.header_left, m.header_right, formatNrmsd(m.nrmsd)])}
                  />
                )}
              </FirstTen>
            )}
            <ValuesMessage message={data.message} />
          </Stack>
        )}
      </RelationSection>
      <RelationSection
        title="Joinability"
        testId="relation-joining"
        status={joining.status}
        onCompute={() => void joining.run((signal) => relationsApi.joining(a, b, signal))}
      >
        {(data) => (
          <Stack gap="2">
            <HStack gap="2" wrap="wrap">
              <Badge colorPalette={data.joinable ? 'green' : 'gray'}>{data.joinable ? 'Joinable' : 'Not joinable'}</Badge>
              <Badge colorPalette={data.unionable ? 'green' : 'gray'}>{data.unionable ? 'Unionable' : 'Not unionable'}</Badge>
              <Text fontSize="sm">Join score {formatScore(data.join_score)}</Text>
            </HStack>
            {data.matching_headers.length > 0 && (
              <FirstTen items={data.matching_headers}>
                {(items) => (
                  <SimpleTable
                    label="Matching headers"
                    columns={[left.name, right.name, 'Values found right', 'Values found left', 'Score']}
                    rows={items.map((m) => [
                      m.header_left,
                      m.header_right,
                      foundShare(m, m.containment_left),
                      foundShare(m, m.containment_right),
                      formatScore(m.score),
                    ])}
                  />
                )}
              </FirstTen>
            )}
            <ValuesMessage message={data.message} />
          </Stack>
        )}
      </RelationSection>
      <RelationSection
        title="Linkability"
        testId="relation-linkability"
        status={linkability.status}
        onCompute={() => void linkability.run((signal) => relationsApi.linkability(a, b, signal))}
      >
        {(data) => <LinkResultView data={data} />}
      </RelationSection>
      <Box>
        <Alert.Root status="info" size="sm">
          <Alert.Indicator />
          <Alert.Description>Each relation is computed when you ask for it; values and rows take part only for records you may download.</Alert.Description>
        </Alert.Root>
      </Box>
    </Stack>
  );
}
