import { Injectable } from '@nestjs/common';
import { DetailError, FieldValidationError } from '@dc/platform';
import { pageOf, Permission, RECORD_ACCESS_CODES, REQUEST_STATUSES, ShownRequestStatus, strictPageOf } from '@dc/contracts';
import { z } from 'zod';
import { decodeSearchCursor, EMPTY_RESULT, encodeSearchCursor, SearchHit, SearchIndex, SearchViewer, toRecordsPage } from '@dc/search-index';
import { RequestStatuses } from '../requests/request-statuses';
import { projectKey } from '../projection/record-document';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface RecordsListParams {
  query?: string;
  view?: string;
  page?: string;
  page_size?: string;
  group?: string;
  /** "Find similar datasets": the id of the reference record. */
  refid?: string;
  /** Search-after: the last result of the page before, as the `next` link carries it. */
  cursor?: string;
}

/** The Workspace list: visibility is applied by the index inside the query. */
@Injectable()
export class RecordsListService {
  constructor(
    private readonly index: SearchIndex,
    private readonly requests: RequestStatuses,
  ) {}

  async list(params: RecordsListParams, viewer: Viewer | null, baseUrl: string) {
    // A repeated query parameter arrives as an array: one value per parameter is all that makes sense.
    const repeated = Object.entries(params).filter(([, value]) => value !== undefined && typeof value !== 'string');
    if (repeated.length > 0) throw new FieldValidationError(Object.fromEntries(repeated.map(([name]) => [name, ['Give this parameter once.']])));
    const page = params.page === undefined ? 1 : strictPageOf(params.page);
    if (page === null) throw new DetailError('Invalid page.', 404);
    const { pageSize } = pageOf({ page_size: params.page_size }, { size: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE });
    const view = params.view === 'own' ? 'own' : 'all';
    const after = params.cursor ? decodeSearchCursor(params.cursor) : undefined;
    if (after === null) throw new FieldValidationError({ cursor: ['Invalid cursor: follow the next link, or leave it out.'] });
    // A project is its organisation's: the filter matches only the caller's organisation's records in
    // it, so it lists nothing to anonymous callers or to other organisations.
    const groupId = params.group ? (viewer ? projectKey(viewer.organisationId, params.group) : null) : undefined;
    const search = { text: params.query, viewer, view, groupId: groupId ?? undefined, relatedTo: params.refid || undefined, page, pageSize } as const;
    const result = groupId === null ? EMPTY_RESULT : await this.index.search(after && page > 1 ? { ...search, after } : search);
    if (page > 1 && result.results.length === 0) throw new DetailError('Invalid page.', 404);
    // The viewer's requests, for "Request {status}" and the download rule, as the record details say.
    const statuses = viewer
      ? await this.requests.statusesFor(
          viewer.userId,
          result.results.filter((hit) => hit.ownerId !== viewer.userId).map((hit) => hit.id),
        )
      : new Map<string, ShownRequestStatus>();
    const last = result.results.at(-1);
    const nextCursor = last && encodeSearchCursor({ score: last.score ?? null, changedAt: last.changedAt, id: last.id });
    return toRecordsPage(
      { ...result, results: result.results.map((hit) => toCard(hit, viewer, statuses.get(hit.id) ?? null)) },
      { baseUrl, page, pageSize, nextCursor },
    );
  }
}

/** The caller, as far as the list needs to know: who they are and what they may do. */
export interface Viewer extends SearchViewer {
  permissions: string[];
}

/**
 * A record card as the list answers it (spec section 2, Record card): the fields this service
 * computes for every card, then the catalogue's card fields as stored.
 */
export const recordCardSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  alt_name: z.string(),
  description: z.string(),
  headers: z.array(z.string()).describe("the record's column headers (the card's schema preview)"),
  enc_headers: z.array(z.string()).describe('headers of hashed columns'),
  visibility: z.enum(['PR', 'EV', 'CU']),
  date_created: z.string(),
  date_changed: z.string(),
  is_owner: z.boolean(),
  edit: z.boolean().describe('the caller may edit the record'),
  can_delete: z.boolean().describe('the caller may delete the record'),
  request_status: z
    .enum([...REQUEST_STATUSES, 'expired'])
    .nullable()
    .describe("the caller's access request for this record, if any"),
  // The catalogue's card fields (record-document.ts); optional because documents indexed before a
  // field existed lack it until the index is rebuilt.
  user: z.string().optional().describe("the owner's username"),
  organisation: z.object({ id: z.string(), name: z.string() }).optional(),
  origin: z.string().optional().describe('how the record was indexed (upload, url, metadata, ...)'),
  type: z.string().optional(),
  size: z.number().int().optional().describe('bytes of all its files'),
  version: z.number().int().optional(),
  access: z.enum(RECORD_ACCESS_CODES).optional().describe('RE: data needs an approved request; OP: whoever may see it may download'),
  accessFee: z.number().nullable().optional(),
  currency: z.string().optional(),
  policy: z.string().nullable().optional().describe("the access policy's id"),
  total_rows: z.number().int().nullable().optional(),
  file_count: z.number().int().optional(),
});
export type RecordCard = z.infer<typeof recordCardSchema>;

/** A record card: the stored card fields, the indexed ones, and what this viewer may do with it. */
function toCard(hit: SearchHit, viewer: Viewer | null, requestStatus: ShownRequestStatus | null): RecordCard {
  const isOwner = viewer?.userId === hit.ownerId;
  const sameOrganisation = viewer?.organisationId === hit.organisationId;
  return {
    ...hit.card,
    is_owner: isOwner,
    edit: isOwner || (sameOrganisation && viewer!.permissions.includes(Permission.ChangeRecord)),
    can_delete: isOwner || (sameOrganisation && viewer!.permissions.includes(Permission.DeleteRecord)),
    id: hit.id,
    name: hit.name,
    alt_name: hit.altName ?? '',
    description: hit.description,
    // The card's schema preview.
    headers: hit.headers,
    // Documents indexed before cards carried it have none until the index is rebuilt.
    enc_headers: Array.isArray(hit.card.enc_headers) ? hit.card.enc_headers : [],
    visibility: hit.visibility,
    date_created: hit.createdAt,
    date_changed: hit.changedAt,
    request_status: requestStatus,
  };
}
