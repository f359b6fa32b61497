import { formatNumber } from '../lib/format';
import type { CatalogueRecord, FileMeta, FileTable, RecordFile, ShareFormat } from './types';

/** The newest file that has META, else the newest file. */
export function latestFile(record: CatalogueRecord): RecordFile | undefined {
  return [...record.FILES].reverse().find((file) => file.META) ?? record.FILES.at(-1);
}

/** The main table of a file: FILE, the first sheet, or the first archive member with one. */
export function tableOf(meta: FileMeta | null | undefined, depth = 0): FileTable | undefined {
  if (!meta || depth > 3) return undefined;
  if (meta.FILE?.HEADERS) return meta.FILE;
  if (meta.SHEETS?.[0]?.HEADERS) return meta.SHEETS[0];
  for (const member of meta.MEMBERS ?? []) {
    const table = tableOf(member, depth + 1);
    if (table) return table;
  }
  return undefined;
}

/** The file's words: its own WORDSET plus those of its columns, distinct, in order. */
export function wordSetOf(meta: FileMeta | null | undefined): string[] {
  if (!meta) return [];
  const words = new Set<string>(meta.WORDSET ?? []);
  const table = tableOf(meta);
  for (const stats of Object.values(table?.STATS ?? {})) for (const word of stats.WORDSET ?? []) words.add(word);
  return [...words];
}

export function isNumeric(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The file's extraction errors and those of its archive members ("member.csv: message"). */
export function errorsOf(meta: FileMeta | null | undefined): string[] {
  if (!meta) return [];
  const own = meta.ERRORS ?? [];
  const members = (meta.MEMBERS ?? []).flatMap((member) => (member.ERRORS ?? []).map((error) => `${member.NAME ?? 'member'}: ${error}`));
  return [...own, ...members];
}

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };
const LINE_ENDINGS: Record<string, string> = { '\n': 'LF', '\r\n': 'CRLF', '\r': 'CR' };

/** How a column is shared, for the headers table: "hashed", "masked", "hashed, masked", or "" when plain. */
export function sharingOf(formats: ShareFormat[] | undefined, index: number): string {
  const format = formats?.find((f) => f.index === index);
  if (!format) return '';
  return [format.hash ? 'hashed' : '', format.format === 'mask' ? 'masked' : ''].filter(Boolean).join(', ');
}

/** One block of the Table Metadata tab: a title, facts, and the table's headers when it has some. */
export interface TableSection {
  title: string;
  facts: [label: string, value: string][];
  table?: FileTable;
  shareFormats?: ShareFormat[];
}

/** Archive members shown in Table Metadata; the rest are counted. */
export const MAX_MEMBER_SECTIONS = 50;

const errorsFact = (errors: string[]): [string, string] => ['Errors', errors.join(' · ')];

const rowsAndColumns = (table: FileTable | undefined): [string, string][] =>
  table
    ? [
        ['Rows', formatNumber(table.TOTAL_ROWS)],
        ['Columns', formatNumber(table.HEADERS.length)],
      ]
    : [];

function scalarFacts(record: Record<string, unknown>): [string, string][] {
  return Object.entries(record)
    .filter(([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value))
    .map(([key, value]) => [key, String(value)]);
}

/**
 * What the Table Metadata tab shows, from the file's real META: the CSV dialect, every sheet of a
 * workbook, the HL7 messages and segments, each archive member, and an indexed database table's
 * TABLE. Empty when the file has none of these (the tab is then hidden).
 */
export function tableMetadataOf(meta: FileMeta | null | undefined): TableSection[] {
  if (!meta) return [];
  const sections: TableSection[] = [];
  if (meta.TABLE) sections.push({ title: 'Database table', facts: scalarFacts(meta.TABLE), table: meta.FILE });
  if (meta.CSV) {
    const csv = meta.CSV;
    sections.push({
      title: 'Delimited text',
      facts: [
        ['Delimiter', DELIMITER_NAMES[csv.DELIMITER ?? ''] ?? String(csv.DELIMITER ?? 'N/A')],
        ['Encoding', csv.ENCODING ?? 'N/A'],
        ['Header row', csv.HAS_HEADER === false ? 'no (names generated)' : 'yes'],
        ['Line ending', LINE_ENDINGS[csv.LINE_ENDING ?? ''] ?? 'N/A'],
        ...rowsAndColumns(meta.FILE),
      ],
      table: meta.FILE,
      shareFormats: meta.SHARE_FORMATS,
    });
  }
  for (const sheet of meta.SHEETS ?? []) {
    sections.push({
      title: `Sheet "${sheet.NAME}"`,
      facts: [['Header row', sheet.HEADER_ROW ? String(sheet.HEADER_ROW) : 'none (names generated)'], ...rowsAndColumns(sheet)],
      table: sheet,
      shareFormats: sheet.SHARE_FORMATS,
    });
  }
  if (meta.HL7) {
    const hl7 = meta.HL7;
    const segments = Object.entries(hl7.SEGMENTS ?? {}).map(([name, count]) => `${name} ${count}`);
    sections.push({
      title: 'HL7 v2 messages',
      facts: [
        ['Messages', formatNumber(hl7.MESSAGES ?? 0)],
        ['Version', hl7.VERSION ?? 'N/A'],
        ['Message types', (hl7.MESSAGE_TYPES ?? []).join(', ') || 'N/A'],
        ['Segments', segments.join(', ') || 'N/A'],
        ...rowsAndColumns(meta.FILE),
      ],
      table: meta.FILE,
      shareFormats: meta.SHARE_FORMATS,
    });
  }
  const members = meta.MEMBERS ?? [];
  for (const member of members.slice(0, MAX_MEMBER_SECTIONS)) {
    const table = tableOf(member);
    sections.push({
      title: `Archive member ${member.NAME ?? ''}`.trim(),
      facts: [
        ['Type', member.TYPE ?? 'N/A'],
        ['Status', member.STATUS ?? 'N/A'],
        ...rowsAndColumns(table),
        ...(member.ERRORS?.length ? [errorsFact(member.ERRORS)] : []),
      ],
      table,
      shareFormats: member.SHARE_FORMATS,
    });
  }
  if (members.length > MAX_MEMBER_SECTIONS) sections.push({ title: `… and ${members.length - MAX_MEMBER_SECTIONS} more members`, facts: [] });
  return sections;
}

/** Readable names of a document's facts (META DOCUMENT); other keys are shown as words ("SOME_KEY" -> "Some key"). */
const DOCUMENT_LABELS: Record<string, string> = {
  PAGES: 'Pages',
  PARAGRAPHS: 'Paragraphs',
  TABLES: 'Tables',
  LINES: 'Lines',
  WORDS: 'Words',
  CHARACTERS: 'Characters',
  TITLE: 'Title',
  AUTHOR: 'Author',
  SUBJECT: 'Subject',
  ENCODING: 'Encoding',
  DELIMITER: 'Delimiter',
};

const wordsOfKey = (key: string) => {
  const text = key.replace(/_/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** A document's facts as [label, value, exact value when a number]: readable labels, grouped numbers. */
export function documentFactsOf(info: Record<string, unknown> | undefined, format: (n: number) => string): [string, string, string?][] {
  return Object.entries(info ?? {})
    .filter(([, value]) => typeof value !== 'object' || value === null)
    .map(([key, value]): [string, string, string?] => {
      const label = DOCUMENT_LABELS[key] ?? wordsOfKey(key);
      if (typeof value === 'number') return [label, format(value), String(value)];
      if (key === 'DELIMITER') return [label, DELIMITER_NAMES[String(value)] ?? String(value)];
      return [label, value === null || value === '' ? 'N/A' : String(value)];
    });
}

/** A table at a glance: rows, columns, missing cells (and their share) and how many columns of each type. */
export interface TableOverview {
  rows: number;
  columns: number;
  missingCells: number;
  /** Missing cells of all cells, 0 to 1. */
  missingShare: number;
  types: [type: string, columns: number][];
}

export function tableOverviewOf(table: FileTable | undefined): TableOverview | undefined {
  if (!table) return undefined;
  const stats = table.HEADERS.map((_, i) => table.STATS[String(i)]);
  const missingCells = stats.reduce((sum, s) => sum + (s?.MISSING_VALS ?? 0), 0);
  const cells = table.TOTAL_ROWS * table.HEADERS.length;
  const types = new Map<string, number>();
  for (const s of stats) {
    const type = s?.DICT?.type ?? 'unknown';
    types.set(type, (types.get(type) ?? 0) + 1);
  }
  return {
    rows: table.TOTAL_ROWS,
    columns: table.HEADERS.length,
    missingCells,
    missingShare: cells > 0 ? missingCells / cells : 0,
    types: [...types].sort((a, b) => b[1] - a[1]),
  };
}
