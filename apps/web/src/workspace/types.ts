import type { ResponseOf } from '../api/typed';

/** Access terms of a record: RE needs an approved request, OP is open to whoever may see it. */
export type RecordAccess = 'RE' | 'OP';

/** One result of the records list (`GET /api/records/`, `GET /api/recordsannon/`): what a card shows, as documented. */
export type RecordCardData = ResponseOf<'/api/records', 'get'>['results'][number];

/** A page of the list as documented; `count_capped`: the server stopped counting at its limit, so `count` means "at least". */
export type RecordsPage = ResponseOf<'/api/records', 'get'>;

export interface RecordsSearch {
  query: string;
  /** own or all; only sent when signed in. */
  view: 'own' | 'all';
  /** A project (group) id, or empty for all projects. */
  group: string;
  /** "Find similar datasets": records most related to this one first. */
  refid: string;
}
