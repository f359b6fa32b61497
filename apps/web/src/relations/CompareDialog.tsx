import { type ReactNode, useState } from 'react';
import { skipToken, useQuery } from '@tanstack/react-query';
import { Alert, Badge, Box, Button, Heading, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { LoadingState } from '../components/LoadingState';
import { ModalDialog } from '../components/ModalDialog';
import { formatDate, formatScore, formatSize } from '../lib/format';
import {
  FIRST_SHOWN,
  formatNrmsd,
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
import { EXPLAIN } from './relation-explanations';
import type { WorkAreaRecord } from './work-area';
import { relationKeys, type RelationKind } from '../shared/query-keys';
import { DataTable } from '../components/DataTable';

type Status<T> = { state: 'idle' } | { state: 'loading' } | { state: 'done'; data: T } | { state: 'error'; message: string };

/**
 * One relation computed on demand: a button, then a loading state, then the result or the error
 * text. Each press asks again, with the parameters of that moment (the semantic range).
 */
function useRelation<T, P extends object | null = null>(
  kind: RelationKind,
  [left, right]: [string, string],
  call: (params: P, signal: AbortSignal) => Promise<T>,
) {
  const [asked, setAsked] = useState<{ params: P } | null>(null);
  const query = useQuery({
    queryKey: relationKeys.compare(kind, left, right, asked?.params ?? null),
    queryFn: asked ? ({ signal }) => call(asked.params, signal) : skipToken,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const status: Status<T> =
    asked === null
      ? { state: 'idle' }
      : query.isFetching || query.isPending
        ? { state: 'loading' }
        : query.isError
          ? { state: 'error', message: relationErrorText(query.error) }
          : { state: 'done', data: query.data };
  function run(params: P) {
    if (asked && JSON.stringify(asked.params) === JSON.stringify(params)) void query.refetch();
    else setAsked({ params });
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
  explanation,
}: {
  title: string;
  testId: string;
  status: Status<T>;
  onCompute(): void;
  children(data: T): ReactNode;
  controls?: ReactNode;
  /** What its score means, in plain words. */
  explanation: string;
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
      <Text fontSize="xs" color="fg.muted" data-testid="relation-explanation">
        {explanation}
      </Text>
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
    <DataTable label={label} headers={columns} maxH="64">
      {rows.map((cells, i) => (
        <Table.Row key={i}>
          {cells.map((cell, j) => (
            <Table.Cell key={j}>{cell}</Table.Cell>
          ))}
        </Table.Row>
      ))}
    </DataTable>
  );
}

/** A note that there is nothing to show, or the result when there is. */
function NoneOr({ items, none, children }: { items: unknown[]; none: string; children: ReactNode }) {
  return items.length === 0 ? (
    <Text fontSize="sm" color="fg.muted">
      {none}
    </Text>
  ) : (
    children
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
    <ModalDialog open={!!records} onClose={onClose} size="xl" testId="compare-dialog" title="Compare records">
      {records && <Comparison key={`${records[0].id}-${records[1].id}`} left={records[0]} right={records[1]} />}
    </ModalDialog>
  );
}

function Comparison({ left, right }: { left: WorkAreaRecord; right: WorkAreaRecord }) {
  const pair: [string, string] = [left.id, right.id];
  const [a, b] = pair;
  const semantics = useRelation<SemanticsResult, { min: number; max: number }>('semantics', pair, (range, signal) =>
    relationsApi.semantics(a, b, range, signal),
  );
  const structures = useRelation<StructuresResult>('structures', pair, (_, signal) => relationsApi.structures(a, b, signal));
  const statistics = useRelation<StatisticsResult>('statistics', pair, (_, signal) => relationsApi.statistics(a, b, signal));
  const joining = useRelation<JoiningResult>('joining', pair, (_, signal) => relationsApi.joining(a, b, signal));
  const linkability = useRelation<LinkabilityResult>('linkability', pair, (_, signal) => relationsApi.linkability(a, b, signal));
  const [min, setMin] = useState(0);
  const [max, setMax] = useState(1);
  const rangeError = max < min ? RANGE_ERROR : null;
  const relations = [semantics, structures, statistics, joining, linkability];
  const computing = relations.some((r) => r.status.state === 'loading');
  function computeAll() {
    if (!rangeError) semantics.run({ min, max });
    for (const relation of [structures, statistics, joining, linkability]) relation.run(null);
  }

  return (
    <Stack gap="4">
      <HStack justify="space-between" gap="2" wrap="wrap">
        <Text fontSize="sm" color="fg.muted">
          Scores run from 0 (nothing alike) to 1 (alike in every way); NRMSD is a distance: lower is closer.
        </Text>
        <Button size="sm" colorPalette="teal" onClick={computeAll} loading={computing} loadingText="Computing all…">
          Compute all
        </Button>
      </HStack>
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
        explanation={EXPLAIN.semantics}
        testId="relation-semantics"
        status={semantics.status}
        onCompute={() => !rangeError && semantics.run({ min, max })}
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
            <NoneOr items={data.sim_words} none="No similar words in this range.">
              <FirstTen items={data.sim_words}>
                {(items) => (
                  <SimpleTable
                    label="Similar words"
                    columns={['Word', 'Word', 'Similarity']}
                    rows={items.map((w) => [w.word_left, w.word_right, formatScore(w.score)])}
                  />
                )}
              </FirstTen>
            </NoneOr>
          </Stack>
        )}
      </RelationSection>
      <RelationSection
        title="Structural Relations"
        explanation={EXPLAIN.structures}
        testId="relation-structures"
        status={structures.status}
        onCompute={() => structures.run(null)}
      >
        {(data) => (
          <Stack gap="2">
            <Text fontSize="sm">Structural score {formatScore(data.struct_score)}</Text>
            <NoneOr items={data.struct_types} none="No columns share a data type.">
              <SimpleTable
                label="Columns sharing data types"
                columns={['Type', left.name, right.name]}
                rows={data.struct_types.map((t) => [<Badge key="t">{t.type}</Badge>, t.headers_left.join(', '), t.headers_right.join(', ')])}
              />
            </NoneOr>
          </Stack>
        )}
      </RelationSection>
      <RelationSection
        title="Statistical Relations"
        explanation={EXPLAIN.statistics}
        testId="relation-statistics"
        status={statistics.status}
        onCompute={() => statistics.run(null)}
      >
        {(data) => (
          <Stack gap="2">
            <NoneOr items={data.stats_mtx} none="No numeric columns with an NRMSD under 10.">
              <FirstTen items={data.stats_mtx}>
                {(items) => (
                  <SimpleTable
                    label="NRMSD between columns"
                    columns={[left.name, right.name, 'NRMSD']}
                    rows={items.map((m) => [m.header_left, m.header_right, formatNrmsd(m.nrmsd)])}
                  />
                )}
              </FirstTen>
            </NoneOr>
            <ValuesMessage message={data.message} />
          </Stack>
        )}
      </RelationSection>
      <RelationSection title="Joinability" explanation={EXPLAIN.joining} testId="relation-joining" status={joining.status} onCompute={() => joining.run(null)}>
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
            {data.matching_headers.length > 0 && (
              <Text fontSize="xs" color="fg.muted">
                {EXPLAIN.valuesFound}
              </Text>
            )}
            <ValuesMessage message={data.message} />
          </Stack>
        )}
      </RelationSection>
      <RelationSection
        title="Linkability"
        explanation={EXPLAIN.linkability}
        testId="relation-linkability"
        status={linkability.status}
        onCompute={() => linkability.run(null)}
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
