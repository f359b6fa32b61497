// What META may show before access is granted (docs/metadata-before-access.md): with extractOption
// minimal or metadata, the shape of the data and its statistics, never one of its cells. A pass over
// the finished extraction result, kept apart from the profiling code, and safe on META of any age
// (records stored before this pass existed are masked when they are read).
import { DEFAULT_LIMITS } from './types';
import { isMeaningful, words } from './words';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Table-holding types (files, and 'table': a database table described by aggregate queries): their
 * cells are data. Documents (pdf, docx, txt) are described by their words.
 */
const TABULAR_TYPES = new Set(['csv', 'xls', 'xlsx', 'hl7', 'table']);

/**
 * A value's shape without its content: X for upper-case letters, x for other letters, 9 for digits;
 * punctuation, spaces and the symbols that structure values (currency, maths, ^ and ~ of HL7) stay;
 * anything else (emoji, marks, control characters) becomes *. "Saint Paul, MN 55101" gives
 * "Xxxxx Xxxx, XX 99999". Masking a mask changes nothing.
 */
export function maskCellValue(text: string): string {
  return text.replace(MASKED, (char) => (UPPER.test(char) ? 'X' : LETTER.test(char) ? 'x' : DIGIT.test(char) ? '9' : '*'));
}

const MASKED = /[\p{L}\p{N}]|[^\p{P}\p{Z}\p{Sc}\p{Sm}\p{Sk}\s]/gu;
const UPPER = /[\p{Lu}\p{Lt}]/u;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

/** True when a text could be a mask: nothing in it but what maskCellValue leaves. */
export function isMaskShaped(text: string): boolean {
  return /^[Xx9*\p{P}\p{Z}\p{Sc}\p{Sm}\p{Sk}\s]*$/u.test(text);
}

const maskList = (value: unknown): unknown => (Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? maskCellValue(item) : item)) : value);

/** Messages that quote a cell: a column's first non-number, an HL7 line that is not a segment. */
const QUOTING_MESSAGES = [/(\(first: ")(.*)("\))/, /(is not an HL7 segment: ")(.*)(")$/];

function maskMessages(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((message) => {
    if (typeof message !== 'string') return message;
    let masked = message;
    for (const pattern of QUOTING_MESSAGES)
      masked = masked.replace(pattern, (_all, before: string, quoted: string, after: string) => `${before}${maskCellValue(quoted)}${after}`);
    return masked;
  });
}

/** A column's statistics: counts, types and MIN/MAX/MEAN/STD stay; values become masks, words go. */
function maskColumn(stats: unknown): unknown {
  if (!isObject(stats)) return stats;
  const masked: Json = { ...stats };
  for (const key of ['FORMATTED_VALS', 'SAMPLE_VALS', 'DUPLICATE_VALS', 'MISSING_VALS'] as const) if (key in stats) masked[key] = maskList(stats[key]);
  // A list of words today; a word-to-count map in older META.
  if ('WORDSET' in stats) masked.WORDSET = Array.isArray(stats.WORDSET) ? [] : isObject(stats.WORDSET) ? {} : stats.WORDSET;
  if ('ERRORS' in stats) masked.ERRORS = maskMessages(stats.ERRORS);
  // The most frequent values are cells: their masks would say no more than FORMATTED_VALS do.
  delete masked.TOP_VALUES;
  return masked;
}

/** Hashed columns (SHARE_FORMATS hash: true) show keyed hashes, not cells: they stay linkable. */
function maskTable(table: unknown, shareFormats: unknown): unknown {
  if (!isObject(table) || !isObject(table.STATS)) return table;
  const hashed = new Set(Array.isArray(shareFormats) ? shareFormats.filter((f) => isObject(f) && f.hash === true).map((f) => String((f as Json).index)) : []);
  return { ...table, STATS: Object.fromEntries(Object.entries(table.STATS).map(([index, stats]) => [index, hashed.has(index) ? stats : maskColumn(stats)])) };
}

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** As many keywords as extraction keeps (limits.maxKeywords). */
const MAX_KEYWORDS = DEFAULT_LIMITS.maxKeywords;

/** The most frequent of these words, first seen first among equals. */
function topWords(all: string[]): string[] {
  const counts = new Map<string, number>();
  for (const word of all) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_KEYWORDS)
    .map(([word]) => word);
}

/** The meaningful words of a file's headers (every table of it), with repeats. */
function headerWords(meta: Json): string[] {
  const tables = [meta.FILE, ...(Array.isArray(meta.SHEETS) ? meta.SHEETS : [])];
  return tables.flatMap((table) => (isObject(table) ? stringsOf(table.HEADERS).flatMap((header) => words(header).filter(isMeaningful)) : []));
}

function keepWords(value: unknown, allowed: Set<string>): unknown {
  if (Array.isArray(value)) return value.filter((word) => typeof word === 'string' && allowed.has(word));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).filter(([word]) => allowed.has(word)));
  return value;
}

function maskResult(meta: Json, depth: number): Json {
  const masked: Json = { ...meta };
  if ('FILE' in meta) masked.FILE = maskTable(meta.FILE, meta.SHARE_FORMATS);
  if (Array.isArray(meta.SHEETS)) masked.SHEETS = meta.SHEETS.map((sheet) => (isObject(sheet) ? maskTable(sheet, sheet.SHARE_FORMATS) : sheet));
  if (Array.isArray(meta.MEMBERS)) masked.MEMBERS = meta.MEMBERS.map((member) => (isObject(member) && depth < 4 ? maskResult(member, depth + 1) : member));
  if ('ERRORS' in meta) masked.ERRORS = maskMessages(meta.ERRORS);

  const tabular = TABULAR_TYPES.has(String(meta.TYPE)) || (meta.TYPE === undefined && (isObject(meta.FILE) || Array.isArray(meta.SHEETS)));
  if (tabular) {
    // A table's keywords come from its headers and its text cells: they become its headers' words.
    const fromHeaders = headerWords(meta);
    if ('KEYWORDS' in meta) masked.KEYWORDS = topWords(fromHeaders);
    if ('WORDSET' in meta) masked.WORDSET = keepWords(meta.WORDSET, new Set(fromHeaders));
  } else if (Array.isArray(masked.MEMBERS) && 'KEYWORDS' in meta) {
    // An archive's keywords gather its members': from what its masked members still show.
    masked.KEYWORDS = topWords(masked.MEMBERS.flatMap((member) => (isObject(member) ? stringsOf(member.KEYWORDS) : [])));
  }
  return masked;
}

/**
 * META as it may be shown before access is granted. With EXTRACT_OPTION 'samples' (real values,
 * chosen knowingly by the owner) it is returned as it is; otherwise (minimal, metadata, or META too
 * old to say) every table's FORMATTED_VALS, SAMPLE_VALS (numeric ones too) and duplicate and missing
 * value lists become shape masks, column WORDSETs are emptied, a table file's KEYWORDS keep only
 * the words of its headers, and messages quoting a cell quote its mask. Headers, counts, types,
 * MIN/MAX/MEAN/STD, hashed columns and documents' words stay. Any other input is returned unchanged.
 */
export function withoutCellValues<T>(meta: T): T {
  if (!isObject(meta) || meta.EXTRACT_OPTION === 'samples') return meta;
  return maskResult(meta, 0) as T;
}
