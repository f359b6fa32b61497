import type { BodyOf, ResponseOf } from '../api/typed';

/** Shapes of the Records calls (spec sections 3 and 7) as the catalogue service answers them. */

/** [label, code], as the selects take them (a list of two strings: OpenAPI 3.0 has no tuples). */
export type OptionPair = readonly string[];

export type VisibilityCode = 'PR' | 'EV' | 'CU';
export type AccessCode = 'RE' | 'OP';

export interface NamedId {
  id: string;
  name: string;
}

export interface CustomField {
  label: string;
  value: string;
}

export interface ColumnStats {
  MIN: number | null;
  MAX: number | null;
  MEAN: number | null;
  STD: number | null;
  FORMATTED_VALS?: string[];
  SAMPLE_VALS?: string[];
  DUPLICATE_VALS?: number;
  MISSING_VALS?: number;
  WORDSET?: string[];
  ERRORS?: string[];
  DICT?: { type?: string; count?: number; distinct?: number };
  /** Categories' most frequent values (libs/extraction column-profile.ts); absent before access where they would single someone out. */
  TOP_VALUES?: { value: string; count: number }[];
  /** Equal-width bins of a numeric or date column; date edges are milliseconds since 1970 (UTC). */
  HISTOGRAM?: { kind: 'number' | 'date'; edges: number[]; counts: number[]; exact: boolean };
  QUARTILES?: { q1: number; median: number; q3: number; exact: boolean };
}

export interface FileTable {
  HEADERS: string[];
  TOTAL_ROWS: number;
  /** Keyed by header index as a string. */
  STATS: Record<string, ColumnStats>;
}

/** A shown column's share format (private columns); index is its position in HEADERS. */
export interface ShareFormat {
  index: number;
  format: 'mask' | 'plain';
  hash: boolean;
}

export interface SheetTable extends FileTable {
  NAME: string;
  /** 1-based row of the header; null when the sheet had none. */
  HEADER_ROW?: number | null;
  SHARE_FORMATS?: ShareFormat[];
}

export interface FileMeta {
  NAME?: string;
  TYPE?: string;
  /** minimal or metadata: values are shape masks (X, x, 9); samples: real values the owner chose to show. */
  EXTRACT_OPTION?: string;
  STATUS?: string;
  SIZE?: number | null;
  FILE?: FileTable;
  SHEETS?: SheetTable[];
  DOCUMENT?: Record<string, unknown>;
  HL7?: { MESSAGES?: number; VERSION?: string | null; MESSAGE_TYPES?: string[]; SEGMENTS?: Record<string, number> };
  CSV?: { DELIMITER?: string; ENCODING?: string; HAS_HEADER?: boolean; LINE_ENDING?: string };
  MEMBERS?: FileMeta[];
  KEYWORDS?: string[];
  WORDSET?: string[];
  ERRORS?: string[];
  /** Headers of hashed private columns. */
  ENCRYPTED_COLS?: string[];
  SHARE_FORMATS?: ShareFormat[];
  /** Table metadata of indexed database tables, when present. */
  TABLE?: Record<string, unknown>;
}

/** A record as GET /api/records/{id} answers it, typed from the OpenAPI document. */
type RecordView = ResponseOf<'/api/records/{id}', 'get'>;

/** A stored file; the document gives META as a free-form object, read here as the extraction writes it (null while it runs). */
export type RecordFile = Omit<RecordView['FILES'][number], 'META'> & { META: FileMeta | null };

export type CatalogueRecord = Omit<RecordView, 'FILES'> & { FILES: RecordFile[] };

export type Visibility = ResponseOf<'/api/visibilities/{id}', 'get'>;

export type AccessOptions = ResponseOf<'/api/accessoptions', 'get'>;

export type ExtractOption = 'minimal' | 'metadata' | 'samples';

/** The Index Files form (spec section 2; defaults from section 3 "Index form defaults"). */
export interface IndexForm {
  allowDuplicate: boolean;
  deleteFile: boolean;
  extractOption: ExtractOption;
  recordName: string;
  recordSource: string;
  extractFromURL: boolean;
  recordDescription: string;
  recordProvenance: string;
  recordFields: CustomField[];
}

/** The record fields PUT /api/records/{id}/ takes. */
export type RecordUpdate = BodyOf<'/api/records/{id}', 'put'>;

export type VisibilityUpdate = BodyOf<'/api/visibilities/{id}', 'put'>;
