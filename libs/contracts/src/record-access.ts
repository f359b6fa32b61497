import { DATA_ADMIN, Permission } from './accounts';

/**
 * Who may see and download a record (ARCHITECTURE section 8), as pure rules shared by the services
 * that decide it: the catalogue on its own records, relations on its projection of them.
 */
export interface RecordAccessFacts {
  ownerId: string;
  organisationId: string;
  visibility: 'PR' | 'EV' | 'CU' | string;
  sharedUserIds: readonly string[];
  sharedOrganisationIds: readonly string[];
  access: 'RE' | 'OP' | string;
  /**
   * Seen and downloaded by its owner alone, whatever its visibility: a record derived from data
   * shared with its maker only (docs/metadata-before-access.md, "Lineage"). Absent = false.
   */
  ownerOnly?: boolean;
}

/** What the rules need of the caller (null = an anonymous visitor). */
export interface RecordViewer {
  id: string;
  organisationId: string;
  permissions: readonly string[];
  groups: readonly number[];
}

export interface RecordPermissions {
  view: boolean;
  edit: boolean;
  delete: boolean;
  download: boolean;
  isOwner: boolean;
}

/**
 * Visibility: PR = the owner and the members of the owner's organisation; EV = everyone, anonymous
 * visitors included; CU = as PR, plus the listed organisations and users. An ownerOnly record is
 * its owner's alone (not even the organisation's Data Admins see it).
 */
export function canViewRecord(record: RecordAccessFacts, viewer: RecordViewer | null): boolean {
  if (record.ownerOnly) return !!viewer && viewer.id === record.ownerId;
  if (record.visibility === 'EV') return true;
  if (!viewer) return false;
  if (viewer.id === record.ownerId || viewer.organisationId === record.organisationId) return true;
  return record.visibility === 'CU' && (record.sharedUserIds.includes(viewer.id) || record.sharedOrganisationIds.includes(viewer.organisationId));
}

function holdsInOrganisation(viewer: RecordViewer | null, organisationId: string, permission: string): boolean {
  if (!viewer || viewer.organisationId !== organisationId) return false;
  return viewer.permissions.includes(permission) || viewer.groups.includes(DATA_ADMIN);
}

/** Data Admins edit and delete their organisation's records (group 2, or its permission in the token). */
export function isRecordDataAdmin(viewer: RecordViewer | null, organisationId: string): boolean {
  return holdsInOrganisation(viewer, organisationId, Permission.ChangeRecord);
}

/**
 * Download: the owner, Data Admins of the owner's organisation, anyone who may see the record when
 * access is OP, and a requestor whose request was approved.
 */
export function recordPermissions(record: RecordAccessFacts, viewer: RecordViewer | null, options: { approvedRequest?: boolean } = {}): RecordPermissions {
  const view = canViewRecord(record, viewer);
  const isOwner = !!viewer && viewer.id === record.ownerId;
  const edit = view && (isOwner || isRecordDataAdmin(viewer, record.organisationId));
  const remove = view && (isOwner || holdsInOrganisation(viewer, record.organisationId, Permission.DeleteRecord));
  const download = view && (isOwner || isRecordDataAdmin(viewer, record.organisationId) || record.access === 'OP' || !!options.approvedRequest);
  return { view, edit, delete: remove, download, isOwner };
}

/**
 * On what terms a maker reads a source record into a derived one (a merge), decided when the job is
 * asked for: `own` (theirs, or their organisation's as its Data Admin), `public` (everyone sees it
 * and it is Open), `open` (Open, but not to everyone), `grant` (only through their approved request).
 * `open` and `grant` data was shared with the maker, not published: what is made from it stays theirs
 * alone (ownerOnly) and follows the source's terms (docs/metadata-before-access.md, "Lineage").
 */
export const SOURCE_TERMS = ['own', 'public', 'open', 'grant'] as const;
export type SourceTerms = (typeof SOURCE_TERMS)[number];

/** Terms under which a derivative stays its maker's alone and its download follows the source. */
export const isRestrictingTerms = (terms: SourceTerms) => terms === 'open' || terms === 'grant';

/**
 * The terms a viewer who may download the record holds it under, without their request: `grant`
 * when only an approved request lets them download it.
 */
export function sourceTermsFor(record: RecordAccessFacts, maker: RecordViewer): SourceTerms {
  if (maker.id === record.ownerId || (!record.ownerOnly && isRecordDataAdmin(maker, record.organisationId))) return 'own';
  if (record.access === 'OP' && canViewRecord(record, maker)) return record.visibility === 'EV' && !record.ownerOnly ? 'public' : 'open';
  return 'grant';
}

/** Why a derivative's link to a source stops its data being read, or `holds`. */
export type LinkStanding = 'holds' | 'revoked' | 'removed' | 'grant-ended' | 'closed';

/**
 * Whether a derivative's link to a source still lets its maker read the derivative's data, decided on
 * the deciding service's own projection (catalogue for downloads, relations for values). Revoked
 * links block whatever their terms; `own` and `public` links hold otherwise; `grant` holds while the
 * very request it was made under is the maker's active grant (a new approval brings nothing back);
 * `open` while the source is still Open and visible to the maker.
 */
export function linkStanding(
  link: { terms: SourceTerms; requestId: string | null; revoked: boolean },
  facts: { source: RecordAccessFacts | null; maker: RecordViewer | null; activeRequestId: string | null },
): LinkStanding {
  if (link.revoked) return 'revoked';
  if (!isRestrictingTerms(link.terms)) return 'holds';
  if (!facts.source) return 'removed';
  if (link.terms === 'grant') return link.requestId !== null && facts.activeRequestId === link.requestId ? 'holds' : 'grant-ended';
  return facts.source.access === 'OP' && !!facts.maker && canViewRecord(facts.source, facts.maker) ? 'holds' : 'closed';
}
