import type { ExtractionStatus } from './record';

/** Caps keep events and search documents small whatever a file holds. */
export const MAX_SUMMARY_HEADERS = 1000;
export const MAX_SUMMARY_WORDS = 1000;

export interface MetaSummary {
  headers: string[];
  words: string[];
  totalRows: number | null;
  errors: string[];
  encryptedColumns: string[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A WORDSET is a list of words; older producers used a word to count map. */
const words = (value: unknown): string[] => (Array.isArray(value) ? strings(value) : isObject(value) ? Object.keys(value) : []);

/**
 * What search and relations need from a file's META (spec section 3): headers of its tables
 * (sheets and archive members included), its word set, total rows and errors.
 */
export function summariseMeta(meta: Json | null | undefined): MetaSummary {
  const headers = new Set<string>();
  const wordSet = new Set<string>();
  const errors: string[] = [];
  let totalRows: number | null = null;

  const addTable = (table: unknown, countRows: boolean) => {
    if (!isObject(table)) return;
    for (const header of strings(table.HEADERS)) if (headers.size < MAX_SUMMARY_HEADERS) headers.add(header);
    if (isObject(table.STATS)) for (const stats of Object.values(table.STATS)) if (isObject(stats)) words(stats.WORDSET).forEach((w) => wordSet.add(w));
    if (countRows && typeof table.TOTAL_ROWS === 'number') totalRows = (totalRows ?? 0) + table.TOTAL_ROWS;
  };
  const visit = (node: unknown, depth: number) => {
    if (!isObject(node) || depth > 4) return;
    addTable(node.FILE, true);
    // The main table is also one of the sheets: count its rows once.
    if (Array.isArray(node.SHEETS)) for (const sheet of node.SHEETS) addTable(sheet, false);
    for (const word of [...words(node.KEYWORDS), ...words(node.WORDSET)]) wordSet.add(word);
    errors.push(...strings(node.ERRORS));
    if (Array.isArray(node.MEMBERS)) for (const member of node.MEMBERS) visit(member, depth + 1);
  };
  visit(meta, 0);
  const encrypted = meta && Array.isArray(meta.ENCRYPTED_COLS) ? meta.ENCRYPTED_COLS.map((c) => String(c)) : [];
  return { headers: [...headers], words: [...wordSet].slice(0, MAX_SUMMARY_WORDS), totalRows, errors, encryptedColumns: encrypted };
}

/** The file's extraction status from META.STATUS (libs/extraction: complete, partial, failed, skipped). */
export function statusFromMeta(meta: Json): Extract<ExtractionStatus, 'done' | 'failed' | 'skipped'> {
  switch (meta.STATUS) {
    case 'failed':
      return 'failed';
    case 'skipped':
      return 'skipped';
    default:
      return 'done';
  }
}
