// The shape of a File's META (spec section 3) as produced by extraction. Keys stay upper-case like
// the spec's; the values inside DICT are ours and lower-case. Beside it, the limits and private
// columns an extraction runs under; what a call passes is in options.ts.

/** Spec section 9: minimal (name, date, content type, size), metadata (default), samples (+ real rows). */
export type ExtractOption = 'minimal' | 'metadata' | 'samples';

/** 'table': a database table described by aggregate queries (describeAggregatedTable), not a file. */
export type FileKind = 'csv' | 'xls' | 'xlsx' | 'pdf' | 'docx' | 'hl7' | 'zip' | 'txt' | 'table' | 'other';

/** What one non-missing cell looks like. */
export type ValueKind = 'integer' | 'float' | 'boolean' | 'date' | 'time' | 'text';

/** A column's inferred type: the kind of (nearly) all its values, 'text' when mixed, 'empty' when none. */
export type ColumnType = ValueKind | 'empty';

/**
 * complete: the whole content was read and described.
 * partial: described up to a limit or an error met on the way (ERRORS says where).
 * failed: nothing could be described (empty, corrupt, too large, unsafe archive).
 * skipped: not read on purpose (extractOption minimal, or a type without extraction).
 */
export type ExtractionStatus = 'complete' | 'partial' | 'failed' | 'skipped';

/**
 * How a column is shared (spec: exclude, mask or plain, plus a separate hash option).
 * plain: described as extracted. mask: header, type and counts stay, but no value shows: FORMATTED_VALS
 * and SAMPLE_VALS become character masks ("Xxxxx 99"), WORDSET is empty and MIN, MAX, MEAN and STD are
 * null unless the column is in the summary list. exclude: the column is left out of HEADERS and STATS.
 */
export type ShareFormat = 'exclude' | 'mask' | 'plain';

/** A column picked by its 0-based position in its table or by its header name (HL7: by name, "PID-5"). */
export type ColumnRef = number | string;

/** One shown column's share format; index is the column's position in META's HEADERS. */
export interface ShareFormatEntry {
  index: number;
  format: Exclude<ShareFormat, 'exclude'>;
  /** Its values were replaced by keyed hashes before they were described. */
  hash: boolean;
}

/**
 * Private columns of a file, applied to each of its tables (CSV, every sheet, HL7, archive members).
 * Hashed columns are described from the keyed hashes of their values (HMAC-SHA256 of the trimmed text,
 * 32 hex characters), so no raw value reaches META, and equal values hash equally under the same key.
 */
export interface PrivateColumns {
  /** Columns to hash here, with linkageKey. */
  hash?: ColumnRef[];
  /**
   * Columns whose values arrive hashed already (private indexing: the browser hashed them under the
   * same scheme); they are described like hashed columns, and are not hashed again.
   */
  prehashed?: ColumnRef[];
  /**
   * Of the hashed and prehashed columns, those hashed as a CLK (fuzzy linkage: a keyed Bloom filter
   * of the value's character bigrams, in base64) instead of an exact keyed hash. Ignored for others.
   */
  fuzzy?: ColumnRef[];
  /** Columns not listed are plain. */
  formats?: Array<{ column: ColumnRef; format: ShareFormat }>;
  /** Masked columns whose MIN, MAX, MEAN and STD stay visible. */
  summary?: ColumnRef[];
  /**
   * The linkage key (32 bytes) that hashed columns are keyed with: the same key gives the same hash
   * for the same value in every file. Required when `hash` lists columns.
   */
  linkageKey?: Uint8Array;
  /** The key's id (linkageKeyId) when the columns were hashed elsewhere (prehashed) and the key is not here. */
  linkageKeyId?: string;
}

export interface ColumnDict {
  type: ColumnType;
  /** Non-missing values. */
  count: number;
  /** Distinct non-missing values: exact while distinct_exact, else a HyperLogLog estimate. */
  distinct: number;
  distinct_exact: boolean;
  /** How many values of each kind were seen (a mixed column shows why it is 'text'). */
  kinds: Partial<Record<ValueKind, number>>;
}

export interface ColumnStats {
  /** Numeric statistics; null unless the column is integer or float. STD is the sample deviation (n - 1). */
  MIN: number | null;
  MAX: number | null;
  MEAN: number | null;
  STD: number | null;
  /** The first 5 data rows' values as text, truncated to limits.maxCellChars ('' when missing). */
  FORMATTED_VALS: string[];
  /**
   * extractOption 'samples': real values, a reservoir sample over the whole column in row order.
   * 'metadata': synthetic values that reveal no cell (see SAMPLES on the result).
   */
  SAMPLE_VALS: string[];
  /** Non-missing values that repeat an earlier value (count - distinct). */
  DUPLICATE_VALS: number;
  /** Empty cells, NA-like tokens (NA, N/A, null, None, NaN, ?, "") and cells absent from short rows. */
  MISSING_VALS: number;
  /** The most frequent words of the column's text values (stop words left out), capped at limits.maxWords. */
  WORDSET: string[];
  ERRORS: string[];
  DICT: ColumnDict;
  /**
   * Text, boolean, date and time columns (plain, not hashed or masked) of at most VALUE_COUNTS_CAP
   * distinct values: the most frequent values with their counts, most frequent first (column-profile.ts).
   * Cell values: withoutCellValues removes them, withoutIdentifyingStatistics thins them.
   */
  TOP_VALUES?: TopValue[];
  /** Numeric columns (from the column's sketch) and date columns (from their value counts): equal-width bins. */
  HISTOGRAM?: Histogram;
  /** Numeric columns: the quartiles (from the column's sketch). */
  QUARTILES?: Quartiles;
}

export interface TopValue {
  value: string;
  count: number;
}

export interface Histogram {
  /** 'number': edges are numbers; 'date': edges are milliseconds since 1970-01-01 UTC. */
  kind: 'number' | 'date';
  /** bins + 1 ascending edges; bin i holds values in [edges[i], edges[i + 1]) (the last bin includes its upper edge). */
  edges: number[];
  counts: number[];
  /** False when the counts are scaled from a sample of the column (more numbers than the sketch keeps). */
  exact: boolean;
}

export interface Quartiles {
  q1: number;
  median: number;
  q3: number;
  exact: boolean;
}

export interface FileTable {
  HEADERS: string[];
  /** Data rows (header and blank records excluded). */
  TOTAL_ROWS: number;
  /** Keyed by header index as a string ("0", "1", ...). */
  STATS: Record<string, ColumnStats>;
}

export interface SheetTable extends FileTable {
  NAME: string;
  /** With private columns: the share format of each column of this sheet. */
  SHARE_FORMATS?: ShareFormatEntry[];
  /** 1-based row of the header in the sheet; null when the sheet has no header row (names were generated). */
  HEADER_ROW: number | null;
}

export interface CsvInfo {
  DELIMITER: ',' | ';' | '\t' | '|';
  /** utf-8, utf-16le, utf-16be, or windows-1252 when the bytes were not valid UTF-8. */
  ENCODING: string;
  HAS_HEADER: boolean;
  LINE_ENDING: '\r\n' | '\n' | '\r';
}

export interface DocumentInfo {
  PAGES?: number;
  PARAGRAPHS?: number;
  TABLES?: number;
  LINES: number;
  WORDS: number;
  CHARACTERS: number;
  TITLE?: string;
  AUTHOR?: string;
  SUBJECT?: string;
  ENCODING?: string;
}

export interface Hl7Info {
  MESSAGES: number;
  VERSION: string | null;
  /** MSH-9 values, e.g. ADT^A01. */
  MESSAGE_TYPES: string[];
  /** Segment name to occurrences. */
  SEGMENTS: Record<string, number>;
}

/** META of one file. FILE is present for tables (csv, spreadsheets, hl7); documents have DOCUMENT. */
export interface ExtractionResult {
  NAME: string;
  CONTENT_TYPE: string;
  /** Bytes: as given by the caller, else as counted while reading; null when neither is known. */
  SIZE: number | null;
  /** ISO date-time of the extraction. */
  DATE: string;
  TYPE: FileKind;
  EXTRACT_OPTION: ExtractOption;
  STATUS: ExtractionStatus;
  /** The main table: the CSV, the HL7 field table, or the spreadsheet sheet with the most filled cells. */
  FILE?: FileTable;
  /** Every sheet of a workbook, in workbook order. */
  SHEETS?: SheetTable[];
  CSV?: CsvInfo;
  DOCUMENT?: DocumentInfo;
  HL7?: Hl7Info;
  /** Archive members, each described by its own type (NAME is the path inside the archive). */
  MEMBERS?: ExtractionResult[];
  /** The most frequent meaningful words of the file (headers and text values for tables). */
  KEYWORDS?: string[];
  /** Distinct words of a document, most frequent first, capped at limits.maxWords. */
  WORDSET?: string[];
  /** Whether SAMPLE_VALS hold real cells ('samples') or synthetic ones ('metadata'). */
  SAMPLES?: 'real' | 'synthetic';
  /** With private columns: the header names of the hashed columns of every table (linkable headers). */
  ENCRYPTED_COLS?: string[];
  /** With fuzzy hashed columns: those of ENCRYPTED_COLS whose values are CLKs (base64 Bloom filters), not exact hashes. */
  CLK_COLS?: string[];
  /** With private columns: the share format of each column of FILE (each sheet has its own). */
  SHARE_FORMATS?: ShareFormatEntry[];
  /** With hashed columns: the id of the linkage key they were hashed under (equal ids, comparable hashes). */
  LINKAGE_KEY_ID?: string;
  ERRORS: string[];
}

export interface ExtractionLimits {
  /** Longest CSV record / text line, measured on decoded characters. CSV stops there; text notes it. */
  maxLineBytes: number;
  /** Stop after this many data rows (statistics then cover those rows); undefined reads everything. */
  maxRowsScanned?: number;
  /** .xls/.xlsx are read into memory (their sheets are then read row by row from it; SheetJS parses whole what those readers decline), so larger ones are refused. */
  maxSpreadsheetBytes: number;
  /** .pdf/.docx are parsed in memory too. */
  maxDocumentBytes: number;
  /** A .zip is spooled to a temporary file (its directory is at the end) up to this size. */
  maxArchiveBytes: number;
  maxZipEntries: number;
  /** Total uncompressed bytes read from an archive's members. */
  maxZipTotalBytes: number;
  /** Largest uncompressed/compressed ratio of a member bigger than 1 MiB. */
  maxZipRatio: number;
  /** Columns described per table; more are ignored with an error. */
  maxColumns: number;
  /** WORDSET length (per column and per document). */
  maxWords: number;
  maxKeywords: number;
  /** SAMPLE_VALS length. */
  maxSamples: number;
  /** Truncation of FORMATTED_VALS and SAMPLE_VALS. */
  maxCellChars: number;
  /** Exact distinct-value tracking budget shared by a table's columns; past it DICT.distinct is estimated. */
  maxDistinctTracked: number;
  /** Messages kept per ERRORS list (the last one says how many more). */
  maxErrors: number;
}

export const DEFAULT_LIMITS: Readonly<ExtractionLimits> = Object.freeze({
  maxLineBytes: 1024 * 1024,
  maxRowsScanned: undefined,
  maxSpreadsheetBytes: 50 * 1024 * 1024,
  maxDocumentBytes: 50 * 1024 * 1024,
  maxArchiveBytes: 2 * 1024 * 1024 * 1024,
  maxZipEntries: 1000,
  maxZipTotalBytes: 1024 * 1024 * 1024,
  maxZipRatio: 100,
  maxColumns: 500,
  maxWords: 200,
  maxKeywords: 20,
  maxSamples: 10,
  maxCellChars: 64,
  maxDistinctTracked: 500_000,
  maxErrors: 20,
});
