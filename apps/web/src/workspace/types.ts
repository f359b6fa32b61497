import type { ResponseOf } from '../api/typed';

/** Access terms of a record: RE needs an approved request, OP is open to whoever may see it. */
export type RecordAccess = 'RE' | 'OP';

/** One result of the records list (`GET /api/records/`, `GET /api/recordsannon/`): what a card shows. */
export interface RecordCardData {
  id: string;
  name: string;
  alt_name?: string;
  description?: string;
  visibility?: string;
  date_created?: string | null;
  date_changed?: string | null;
  /** The owner's username. */
  user?: string;
  organisation?: { id: string; name: string } | null;
  origin?: string | null;
  type?: string | null;
  size?: number | null;
  version?: number | string | null;
  access?: RecordAccess | string;
  accessFee?: number | string | null;
  currency?: string | null;
  policy?: string | null;
  total_rows?: number | null;
  file_count?: number;
  /** Column headers, when the list sends them (the schema preview shows them). */
  headers?: string[];
  /** Headers of hashed (linkable) columns: two records can be linked when both have some. */
  enc_headers?: string[];
  /** The caller's request for this record, once requests exist. */
  request_status?: string | null;
  is_owner?: boolean;
  edit?: boolean;
  can_delete?: boolean;
}

/** A page of the list as documented; `count_capped`: the server stopped counting at its limit, so `count` means "at least". */
export type RecordsPage = Pick<ResponseOf<'/api/records', 'get'>, 'count' | 'next' | 'previous'> & { results: RecordCardData[]; count_capped?: boolean };

export interface RecordsSearch {
  query: string;
  /** own or all; only sent when signed in. */
  view: 'own' | 'all';
  /** A project (group) id, or empty for all projects. */
  group: string;
  /** "Find similar datasets": records most related to this one first. */
  refid: string;
}
