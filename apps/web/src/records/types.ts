/** Shapes of the Records calls (spec sections 3 and 7) as the catalogue service answers them. */

/** [label, code], as the selects take them. */
export type OptionPair = [label: string, code: string];

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

export interface RecordFile {
  id: string;
  name: string;
  content_type: string | null;
  size: number | null;
  checksum: string | null;
  /** null while extraction has not ended. */
  META: FileMeta | null;
  extraction_status?: string;
  date_created?: string;
}

export interface Visibility {
  id: string;
  visibility_selection: VisibilityCode;
  organisations_with_visibility: NamedId[];
  users_with_visibility: NamedId[];
  visibility_options?: OptionPair[];
  associated_record: string;
}

export interface CatalogueRecord {
  id: string;
  name: string;
  alt_name?: string | null;
  description?: string | null;
  provenance?: string | null;
  source?: string | null;
  user?: string | null;
  origin?: string | null;
  type?: string | null;
  size?: number | null;
  date_created?: string | null;
  date_changed?: string | null;
  visibility: VisibilityCode;
  policy?: string | null;
  policy_name?: string | null;
  access: AccessCode;
  access_options: OptionPair[];
  visibility_options: OptionPair[];
  accessFee?: number | null;
  currency?: string | null;
  groups?: string[];
  organisation?: { id: string | null; name: string | null } | null;
  visibilitymodel_set?: Visibility[];
  is_owner: boolean;
  edit: boolean;
  can_delete?: boolean;
  request_status?: string | null;
  download_url?: string | null;
  /** Headers of hashed (linkable) private columns. */
  enc_headers?: string[];
  extraction_status?: 'working' | 'done' | null;
  RECORD?: Record<string, string>;
  record_fields?: CustomField[];
  FILES: RecordFile[];
}

export interface AccessOptions {
  visibility_options: OptionPair[];
  access_options: OptionPair[];
  currency_options: OptionPair[];
}

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

export interface RecordUpdate {
  name?: string;
  description?: string;
  provenance?: string;
  source?: string;
  recordFields?: CustomField[];
  access?: AccessCode;
  accessFee?: number | string | null;
  currency?: string;
  policy?: string | null;
}

export interface VisibilityUpdate {
  visibility_selection: VisibilityCode;
  organisations_with_visibility: string[];
  users_with_visibility: string[];
  associated_record: string;
}
