import { useEffect, useRef, useState } from 'react';
import { Badge, Box, Button, Card, DataList, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { exactNumber, formatDate, formatNumber } from '../lib/format';
import { isNumeric, type TableOverview } from './meta';
import type { ColumnStats } from './types';

// Only the parts a bar chart needs, so the bundle stays small.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

const TEAL = '#0d9488';

/** A number for people, with its exact value in a title. */
function Num({ value }: { value: number | null | undefined }) {
  if (!isNumeric(value)) return <>–</>;
  return <span title={exactNumber(value)}>{formatNumber(value)}</span>;
}

/** One bar per label, vertical (histograms) or horizontal (most frequent values), with its accessible name. */
function BarChart({ labels, counts, label, horizontal = false }: { labels: string[]; counts: number[]; label: string; horizontal?: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels,
        datasets: [{ label: 'Count', data: counts, backgroundColor: TEAL, barPercentage: horizontal ? 0.8 : 1, categoryPercentage: horizontal ? 0.9 : 1 }],
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: false } },
        scales: {
          [horizontal ? 'x' : 'y']: { beginAtZero: true, ticks: { precision: 0, callback: (v) => formatNumber(Number(v)) } },
          [horizontal ? 'y' : 'x']: {
            ticks: { autoSkip: true, maxRotation: 0, callback: (_v, i) => (horizontal ? labels[i].slice(0, 18) : i % 2 === 0 ? labels[i] : '') },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [labels, counts, horizontal]);
  const height = horizontal ? Math.max(90, 24 * labels.length + 30) : 150;
  return (
    <Box position="relative" h={`${height}px`} w="100%">
      <canvas ref={canvas} role="img" aria-label={label} />
    </Box>
  );
}

/** A chart's numbers as a table, behind a toggle: the chart's text alternative for screen readers and for reading exact counts. */
function ChartWithTable({ chart, caption, headers, rows }: { chart: React.ReactNode; caption: string; headers: [string, string]; rows: [string, number][] }) {
  const [table, setTable] = useState(false);
  return (
    <Stack gap="1">
      {table ? (
        <Table.Root size="sm" aria-label={caption}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{headers[0]}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{headers[1]}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map(([name, count], i) => (
              <Table.Row key={i}>
                <Table.Cell>{name}</Table.Cell>
                <Table.Cell textAlign="end">{formatNumber(count)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      ) : (
        chart
      )}
      <Button
        size="xs"
        variant="ghost"
        alignSelf="start"
        aria-pressed={table}
        onClick={() => setTable(!table)}
        aria-label={`${table ? 'Show as chart' : 'Show as table'}: ${caption}`}
      >
        {table ? 'Show as chart' : 'Show as table'}
      </Button>
    </Stack>
  );
}

const edgeText = (kind: 'number' | 'date', edge: number) => (kind === 'date' ? formatDate(new Date(edge).toISOString()) : formatNumber(edge));

function Histogram({ header, histogram }: { header: string; histogram: NonNullable<ColumnStats['HISTOGRAM']> }) {
  const { kind, edges, counts } = histogram;
  const ranges = counts.map((_, i) => `${edgeText(kind, edges[i])} – ${edgeText(kind, edges[i + 1])}`);
  const labels = counts.map((_, i) => edgeText(kind, edges[i]));
  const caption = `Histogram of ${header}${histogram.exact ? '' : ' (estimated from a sample)'}`;
  const rows = ranges.map((range, i): [string, number] => [range, counts[i]]);
  const peak = counts.indexOf(Math.max(...counts));
  return (
    <ChartWithTable
      caption={caption}
      headers={['Range', 'Rows']}
      rows={rows}
      chart={
        <BarChart
          labels={labels}
          counts={counts}
          label={`${caption}: ${counts.length} bins from ${ranges[0]?.split(' – ')[0]} to ${edgeText(kind, edges.at(-1) ?? 0)}, most rows in ${ranges[peak]}.`}
        />
      }
    />
  );
}

function TopValues({ header, top, count }: { header: string; top: NonNullable<ColumnStats['TOP_VALUES']>; count: number }) {
  const caption = `Most frequent values of ${header}`;
  const rows = top.map((t): [string, number] => [t.value, t.count]);
  const rest = count - top.reduce((sum, t) => sum + t.count, 0);
  if (rest > 0) rows.push(['(all other values)', rest]);
  return (
    <ChartWithTable
      caption={caption}
      headers={['Value', 'Rows']}
      rows={rows}
      chart={
        <BarChart
          horizontal
          labels={top.map((t) => t.value)}
          counts={top.map((t) => t.count)}
          label={`${caption}: ${top.map((t) => `${t.value} ${t.count}`).join(', ')}.`}
        />
      }
    />
  );
}

/** Missing, repeated and distinct values of a column as one bar over its rows, with the numbers in words. */
function CompletenessBar({ header, rows, stats }: { header: string; rows: number; stats: ColumnStats }) {
  const missing = stats.MISSING_VALS ?? 0;
  const present = stats.DICT?.count ?? Math.max(0, rows - missing);
  const distinct = Math.min(present, stats.DICT?.distinct ?? present);
  const total = Math.max(1, missing + present);
  const parts = [
    { label: 'Distinct', value: distinct, colour: TEAL },
    { label: 'Repeats', value: present - distinct, colour: '#99f6e4' },
    { label: 'Missing', value: missing, colour: '#f59e0b' },
  ];
  const unique = present > 0 && distinct === present;
  const text = `${formatNumber(present)} values, ${formatNumber(distinct)} distinct${unique ? ' (every value unique)' : ''}, ${formatNumber(missing)} missing`;
  return (
    <Stack gap="1">
      <HStack gap="0" h="3" w="100%" borderRadius="sm" overflow="hidden" role="img" aria-label={`Values of ${header}: ${text}`} bg="bg.muted">
        {parts.map((part) => (part.value > 0 ? <Box key={part.label} h="100%" w={`${(100 * part.value) / total}%`} bg={part.colour} /> : null))}
      </HStack>
      <HStack gap="3" wrap="wrap" fontSize="xs" color="fg.muted">
        {parts.map((part) => (
          <HStack key={part.label} gap="1">
            <Box w="2" h="2" borderRadius="full" bg={part.colour} aria-hidden />
            <Text>
              {part.label} {formatNumber(part.value)}
            </Text>
          </HStack>
        ))}
        {unique && <Badge size="sm">unique</Badge>}
      </HStack>
    </Stack>
  );
}

/** Why a column shows no distribution: its values are withheld, or there is nothing to count. */
function NoDistribution({ text }: { text: string }) {
  return (
    <Text fontSize="xs" color="fg.muted" data-testid="no-distribution">
      {text}
    </Text>
  );
}

const MANY_VALUES = 1000;

/**
 * One column's profile: its type, a missing/distinct bar, a histogram (numbers and dates) or its most
 * frequent values (text and categories), and for numbers the five-number summary, mean and spread.
 */
export function ColumnProfile({ header, stats, rows, samples }: { header: string; stats: ColumnStats; rows: number; samples: boolean }) {
  const type = stats.DICT?.type ?? 'unknown';
  const numeric = type === 'integer' || type === 'float';
  const histogram = stats.HISTOGRAM && stats.HISTOGRAM.counts.length > 0 ? stats.HISTOGRAM : undefined;
  const top = stats.TOP_VALUES?.length ? stats.TOP_VALUES : undefined;
  const distinct = stats.DICT?.distinct ?? 0;
  let missingReason = '';
  if (numeric && !histogram)
    missingReason = isNumeric(stats.MIN) ? 'No histogram was made for this column.' : 'Its distribution is shown only to those who may download the data.';
  else if (!numeric && type !== 'empty' && !top && !histogram)
    missingReason = !samples
      ? 'Its most frequent values are not shown: they are values of the data, which the owner chose not to show (they are shown when a record is indexed with real samples).'
      : distinct > MANY_VALUES
        ? `No most frequent values: the column has more than ${formatNumber(MANY_VALUES)} distinct values.`
        : 'Its most frequent values are shown only to those who may download the data.';
  const quartiles = stats.QUARTILES;
  return (
    <Card.Root size="sm" variant="outline" data-testid="stats-card" as="section" aria-label={`Column ${header}`}>
      <Card.Header pb="1">
        <HStack justify="space-between" gap="2">
          <Text fontWeight="semibold" wordBreak="break-word">
            {header}
          </Text>
          <Badge size="sm" colorPalette="gray">
            {type}
          </Badge>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="3">
          <CompletenessBar header={header} rows={rows} stats={stats} />
          {histogram && <Histogram header={header} histogram={histogram} />}
          {top && <TopValues header={header} top={top} count={stats.DICT?.count ?? 0} />}
          {missingReason && <NoDistribution text={missingReason} />}
          {numeric && (
            <DataList.Root orientation="horizontal" size="sm" aria-label={`Summary of ${header}`} gap="1">
              {(
                [
                  ['Minimum', stats.MIN],
                  ['Lower quartile', quartiles?.q1],
                  ['Median', quartiles?.median],
                  ['Upper quartile', quartiles?.q3],
                  ['Maximum', stats.MAX],
                  ['Mean', stats.MEAN],
                  ['Standard deviation', stats.STD],
                ] as const
              )
                .filter(([, value]) => isNumeric(value))
                .map(([label, value]) => (
                  <DataList.Item key={label}>
                    <DataList.ItemLabel>{label}</DataList.ItemLabel>
                    <DataList.ItemValue data-testid={`stat-${label.toLowerCase().replace(/\s/g, '-')}`}>
                      <Num value={value} />
                    </DataList.ItemValue>
                  </DataList.Item>
                ))}
            </DataList.Root>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** The table at a glance, above the columns. */
export function TableOverviewCard({ overview }: { overview: TableOverview }) {
  const items: [string, string][] = [
    ['Rows', formatNumber(overview.rows)],
    ['Columns', formatNumber(overview.columns)],
    ['Missing cells', `${formatNumber(overview.missingCells)} (${(overview.missingShare * 100).toFixed(1)} %)`],
    ['Column types', overview.types.map(([type, n]) => `${n} ${type}`).join(', ') || 'N/A'],
  ];
  return (
    <DataList.Root orientation="horizontal" size="sm" aria-label="Table overview" data-testid="table-overview">
      {items.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue data-testid={`overview-${label.toLowerCase().replace(/\s/g, '-')}`}>{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
