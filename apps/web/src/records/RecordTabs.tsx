import { type ReactNode, useState } from 'react';
import { WordDefinitionDialog } from '../relations/WordDefinitionDialog';
import { Alert, DataList, Heading, Link, Stack, Table, Tabs, Text, Wrap, WrapItem, Badge, SimpleGrid } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { formatDate, formatNumber, formatSize } from '../lib/format';
import { AuditTrail } from '../sharing/AuditTrail';
import { labelOf } from './format';
import { documentFactsOf, errorsOf, isNumeric, latestFile, sharingOf, tableMetadataOf, type TableSection, tableOf, tableOverviewOf, wordSetOf } from './meta';
import { DerivativesPanel, SourcesPanel } from './LineagePanels';
import { ColumnProfile, TableOverviewCard } from './StatsChart';
import type { CatalogueRecord, ColumnStats, FileTable, ShareFormat } from './types';
import { TableScrollArea } from '../components/TableScrollArea';

/** A column the extraction gave no statistics. */
const NO_STATS: ColumnStats = { MIN: null, MAX: null, MEAN: null, STD: null };

export const NO_NUMBERS = 'No numerical data could be extracted.';
/** Spec section 9: formatted values shown. */
const FORMATTED_ROWS = 5;

const truncate = (text: string, max = 20) => (text.length > max ? `${text.slice(0, max)}…` : text);

function HeadersTable({ table, shareFormats, label = 'Headers' }: { table: FileTable; shareFormats?: ShareFormat[]; label?: string }) {
  return (
    <TableScrollArea label={label}>
      <Table.Root size="sm" aria-label={label}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>#</Table.ColumnHeader>
            <Table.ColumnHeader>Header</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Missing</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Duplicates</Table.ColumnHeader>
            {shareFormats && <Table.ColumnHeader>Shared as</Table.ColumnHeader>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {table.HEADERS.map((header, index) => {
            const stats = table.STATS[String(index)];
            return (
              <Table.Row key={index}>
                <Table.Cell>{index + 1}</Table.Cell>
                <Table.Cell data-testid="header-name">{header}</Table.Cell>
                <Table.Cell>{stats?.DICT?.type ?? ''}</Table.Cell>
                <Table.Cell textAlign="end">{formatNumber(stats?.MISSING_VALS)}</Table.Cell>
                <Table.Cell textAlign="end">{formatNumber(stats?.DUPLICATE_VALS)}</Table.Cell>
                {shareFormats && <Table.Cell data-testid="header-sharing">{sharingOf(shareFormats, index) || 'plain'}</Table.Cell>}
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </TableScrollArea>
  );
}

function FileMetadataTab({ record }: { record: CatalogueRecord }) {
  const file = latestFile(record);
  const table = tableOf(file?.META);
  const errors = errorsOf(file?.META);
  const info = file?.META?.DOCUMENT;
  // SHARE_FORMATS describe FILE, the table shown here whenever the file has one.
  const shareFormats = table === file?.META?.FILE ? file?.META?.SHARE_FORMATS : undefined;
  return (
    <Stack gap="4">
      {file ? (
        <DataList.Root orientation="horizontal" size="sm" aria-label="File">
          {(
            [
              ['File', truncate(file.name, 70)],
              ['Content type', file.content_type ?? 'N/A'],
              ['File size', formatSize(file.size)],
              ['Uploaded', formatDate(file.date_created)],
              ['Total rows', table ? formatNumber(table.TOTAL_ROWS) : 'N/A'],
              ['Columns', table ? formatNumber(table.HEADERS.length) : 'N/A'],
            ] as const
          ).map(([label, value]) => (
            <DataList.Item key={label}>
              <DataList.ItemLabel>{label}</DataList.ItemLabel>
              <DataList.ItemValue data-testid={`file-${label.toLowerCase().replace(/\s/g, '-')}`}>{value}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
      ) : (
        <Text color="fg.muted">This record has no file.</Text>
      )}
      {info && (
        <DataList.Root orientation="horizontal" size="sm" aria-label="Document">
          {documentFactsOf(info, formatNumber).map(([label, value, exact]) => (
            <DataList.Item key={label}>
              <DataList.ItemLabel>{label}</DataList.ItemLabel>
              <DataList.ItemValue title={exact}>{value}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
      )}
      {!!record.enc_headers?.length && (
        <Text fontSize="sm" data-testid="linkable-headers">
          Hashed (linkable) columns: {record.enc_headers.join(', ')}
        </Text>
      )}
      {table && <HeadersTable table={table} shareFormats={shareFormats} />}
      {errors.length > 0 && (
        <Alert.Root status={file?.META?.STATUS === 'failed' ? 'error' : 'warning'} data-testid="extraction-errors">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{file?.META?.STATUS === 'failed' ? 'Metadata could not be extracted' : 'Extraction notes'}</Alert.Title>
            <Alert.Description>
              <Stack as="ul" gap="1" ps="4" listStyleType="disc">
                {errors.slice(0, 10).map((error, i) => (
                  <li key={i}>{error}</li>
                ))}
                {errors.length > 10 && <li>… and {errors.length - 10} more</li>}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </Stack>
  );
}

/** Numeric columns whose MIN and MAX the server left out (docs/metadata-before-access.md, "Statistics"). */
const WITHHELD_NOTE = (count: number) =>
  `The minimum, maximum, quartiles and histogram of ${count === 1 ? 'one number column are' : `${count} number columns are`} not shown: the owner masked them, or they would show one person's value (fewer than 10 values, nearly unique values, identifiers such as a date of birth). Those who may download the data see them.`;

function StatisticsTab({ table, samples }: { table: FileTable | undefined; samples: boolean }) {
  const columns = (table?.HEADERS ?? []).map((header, index) => ({ header, stats: table?.STATS[String(index)] }));
  const hasNumbers = columns.some((c) => !!c.stats && [c.stats.MIN, c.stats.MAX, c.stats.MEAN].some(isNumeric));
  const withheld = columns.filter(
    (c) => (c.stats?.DICT?.type === 'integer' || c.stats?.DICT?.type === 'float') && !isNumeric(c.stats.MIN) && !isNumeric(c.stats.MAX),
  ).length;
  const overview = tableOverviewOf(table);
  const profiled = columns.filter((c): c is { header: string; stats: ColumnStats } => !!c.stats);
  if (!table || profiled.length === 0) return <Text color="fg.muted">{NO_NUMBERS}</Text>;
  return (
    <Stack gap="4">
      {overview && <TableOverviewCard overview={overview} />}
      {withheld > 0 && (
        <Text fontSize="sm" color="fg.muted" data-testid="statistics-withheld">
          {WITHHELD_NOTE(withheld)}
        </Text>
      )}
      {!hasNumbers && withheld === 0 && <Text color="fg.muted">{NO_NUMBERS}</Text>}
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
        {profiled.map(({ header, stats }, i) => (
          <ColumnProfile key={`${header}-${i}`} header={header} stats={stats} rows={table.TOTAL_ROWS} samples={samples} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** One column per header, one row per value of the chosen list. */
/** Without the samples option the server shows no real value (docs/metadata-before-access.md). */
const MASKED_VALUES_NOTE = 'Values are shown by their shape only (X: capital letter, x: letter, 9: digit); the data itself is shared on request.';

function ValuesTab({
  table,
  pick,
  rows,
  label,
  masked,
}: {
  table: FileTable | undefined;
  pick: (s: ColumnStats) => string[] | undefined;
  rows?: number;
  label: string;
  masked: boolean;
}) {
  if (!table || table.HEADERS.length === 0) return <Text color="fg.muted">No values were extracted.</Text>;
  const columns = table.HEADERS.map((_, i) => pick(table.STATS[String(i)] ?? NO_STATS) ?? []);
  const count = Math.min(rows ?? Infinity, Math.max(0, ...columns.map((c) => c.length)));
  return (
    <Stack gap="2">
      {masked && (
        <Text fontSize="sm" color="fg.muted" data-testid="masked-values-note">
          {MASKED_VALUES_NOTE}
        </Text>
      )}
      <TableScrollArea label={label}>
        <Table.Root size="sm" aria-label={label}>
          <Table.Header>
            <Table.Row>
              {table.HEADERS.map((header, i) => (
                <Table.ColumnHeader key={i}>{header}</Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {Array.from({ length: count }, (_, r) => (
              <Table.Row key={r}>
                {columns.map((values, c) => (
                  <Table.Cell key={c}>{truncate(values[r] ?? '')}</Table.Cell>
                ))}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScrollArea>
    </Stack>
  );
}

/** The words of the file; each opens its definition (WordNet) with encyclopedia search links. */
function WordSetTab({ words }: { words: string[] }) {
  const [word, setWord] = useState<string | null>(null);
  return (
    <>
      <Wrap gap="2" aria-label="Word set">
        {words.map((w) => (
          <WrapItem key={w}>
            <Badge asChild variant="subtle" colorPalette="teal" size="md" cursor="pointer">
              <button type="button" onClick={() => setWord(w)} aria-label={`Define ${w}`}>
                {w}
              </button>
            </Badge>
          </WrapItem>
        ))}
      </Wrap>
      <WordDefinitionDialog word={word} onClose={() => setWord(null)} />
    </>
  );
}

/** Every table of the file with its facts: the CSV dialect, each sheet, HL7 messages, archive members. */
function TableMetadataTab({ sections }: { sections: TableSection[] }) {
  return (
    <Stack gap="6">
      {sections.map((section, i) => (
        <Stack key={`${section.title}-${i}`} gap="2" data-testid="table-section">
          <Heading as="h3" size="sm">
            {section.title}
          </Heading>
          {section.facts.length > 0 && (
            <DataList.Root orientation="horizontal" size="sm">
              {section.facts.map(([label, value]) => (
                <DataList.Item key={label}>
                  <DataList.ItemLabel>{label}</DataList.ItemLabel>
                  <DataList.ItemValue>{value}</DataList.ItemValue>
                </DataList.Item>
              ))}
            </DataList.Root>
          )}
          {section.table && section.table.HEADERS.length > 0 && (
            <HeadersTable table={section.table} shareFormats={section.shareFormats} label={`Headers of ${section.title}`} />
          )}
        </Stack>
      ))}
    </Stack>
  );
}

function AccessTab({ record }: { record: CatalogueRecord }) {
  const fields = record.record_fields ?? Object.entries(record.RECORD ?? {}).map(([label, value]) => ({ label, value }));
  const items: [string, string][] = [
    ['Access', labelOf(record.access_options, record.access)],
    ['Access fee', record.accessFee !== null && record.accessFee !== undefined ? `${record.accessFee} ${record.currency ?? ''}` : 'None'],
    ['Policy', record.policy ? (record.policy_name ?? record.policy) : 'None'],
    ['Visibility', labelOf(record.visibility_options, record.visibility)],
    ['Source', record.source || 'N/A'],
    ['Provenance', record.provenance || 'N/A'],
    ...fields.map((f): [string, string] => [f.label, f.value]),
  ];
  return (
    <Stack gap="6">
      <DataList.Root orientation="horizontal" size="sm" aria-label="Access">
        {items.map(([label, value], i) => (
          <DataList.Item key={`${label}-${i}`}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      {record.lineage && <SourcesPanel lineage={record.lineage} />}
      {/* The owner side (the owner and Data Admins, who may edit) reads the record's audit trail and the records made from it. */}
      {record.edit && <AuditTrail recordId={record.id} />}
      {record.edit && record.derivatives.length > 0 && <DerivativesPanel record={record} />}
    </Stack>
  );
}

/** The tabs of Record details (spec section 2). While extraction runs only the Working tab shows. */
export function RecordTabs({ record }: { record: CatalogueRecord }) {
  const file = latestFile(record);
  const working = record.extraction_status === 'working' || (!!file && !file.META);
  const table = tableOf(file?.META);
  const words = wordSetOf(file?.META);
  const tableSections = tableMetadataOf(file?.META);
  const masked = !!file?.META && file.META.EXTRACT_OPTION !== 'samples';
  const tabs: { value: string; label: string; content: ReactNode }[] = working
    ? [
        {
          value: 'working',
          label: 'Working',
          content: (
            <Text role="status" color="fg.muted">
              Metadata extraction is in progress. This page updates when it is done.
            </Text>
          ),
        },
      ]
    : [
        { value: 'metadata', label: 'File Metadata', content: <FileMetadataTab record={record} /> },
        { value: 'statistics', label: 'Statistics', content: <StatisticsTab table={table} samples={!masked} /> },
        { value: 'samples', label: 'Sample Values', content: <ValuesTab label="Sample values" table={table} pick={(s) => s.SAMPLE_VALS} masked={masked} /> },
        {
          value: 'formatted',
          label: 'Formatted Values',
          content: <ValuesTab label="Formatted values" table={table} pick={(s) => s.FORMATTED_VALS} rows={FORMATTED_ROWS} masked={masked} />,
        },
        ...(words.length ? [{ value: 'wordset', label: 'Word Set', content: <WordSetTab words={words} /> }] : []),
        ...(tableSections.length ? [{ value: 'table', label: 'Table Metadata', content: <TableMetadataTab sections={tableSections} /> }] : []),
      ];
  tabs.push(
    {
      value: 'groups',
      label: 'Projects',
      content: record.groups?.length ? (
        <Stack as="ul" ps="4" aria-label="Projects of this record">
          {record.groups.map((g) => (
            <li key={g.id}>
              <Link asChild colorPalette="teal">
                <RouterLink to={`/records?group=${encodeURIComponent(g.id)}`}>{g.name}</RouterLink>
              </Link>
            </li>
          ))}
        </Stack>
      ) : (
        <Text color="fg.muted">This record is in no project.</Text>
      ),
    },
    { value: 'access', label: 'Access', content: <AccessTab record={record} /> },
  );
  return (
    <Tabs.Root key={working ? 'working' : 'done'} defaultValue={tabs[0].value} colorPalette="teal" variant="line" lazyMount>
      <Tabs.List flexWrap="wrap">
        {tabs.map((t) => (
          <Tabs.Trigger key={t.value} value={t.value}>
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((t) => (
        <Tabs.Content key={t.value} value={t.value}>
          {t.content}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
