import { Injectable } from '@nestjs/common';
import { DetailError, FieldValidationError } from '@dc/platform';
import { Permission } from '@dc/contracts';
import { SearchHit, SearchIndex, SearchViewer, toRecordsPage } from '@dc/search-index';

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
}

/** The Workspace list: visibility is applied by the index inside the query. */
@Injectable()
export class RecordsListService {
  constructor(private readonly index: SearchIndex) {}

  async list(params: RecordsListParams, viewer: Viewer | null, baseUrl: string) {
    // A repeated query parameter arrives as an array: one value per parameter is all that makes sense.
    const repeated = Object.entries(params).filter(([, value]) => value !== undefined && typeof value !== 'string');
    if (repeated.length > 0) throw new FieldValidationError(Object.fromEntries(repeated.map(([name]) => [name, ['Give this parameter once.']])));
    const page = params.page === undefined ? 1 : Number(params.page);
    if (!Number.isInteger(page) || page < 1) throw new DetailError('Invalid page.', 404);
    const requestedSize = params.page_size === undefined ? DEFAULT_PAGE_SIZE : Number(params.page_size);
    const pageSize = Number.isInteger(requestedSize) && requestedSize > 0 ? Math.min(requestedSize, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
    const view = params.view === 'own' ? 'own' : 'all';
    const result = await this.index.search({ text: params.query, viewer, view, groupId: params.group || undefined, relatedTo: params.refid || undefined, page, pageSize });
    if (page > 1 && result.results.length === 0) throw new DetailError('Invalid page.', 404);
    return toRecordsPage({ ...result, results: result.results.map((hit) => toCard(hit, viewer)) }, { baseUrl, page, pageSize });
  }
}

/** The caller, as far as the list needs to know: who they are and what they may do. */
export interface Viewer extends SearchViewer {
  permissions: string[];
}

/** A record card: the stored card fields, the indexed ones, and what this viewer may do with it. */
function toCard(hit: SearchHit, viewer: Viewer | null): Record<string, unknown> {
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
    visibility: hit.visibility,
    date_created: hit.createdAt,
    date_changed: hit.changedAt,
  };
}
