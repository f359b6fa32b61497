import type { RecordDocument, SearchViewer } from './search-index';

/**
 * The visibility rules (ARCHITECTURE section 8) as access keys, the one place both adapters take them
 * from. A document carries the keys that grant sight of it, a viewer holds keys, and the viewer sees
 * the document when the two sets overlap. One array-overlap predicate on an indexed array (GIN in
 * PostgreSQL, a keyword `terms` filter in Elasticsearch) then enforces visibility inside the query.
 */
export const EVERYONE_KEY = 'everyone';
const userKey = (id: string) => `user:${id}`;
const organisationKey = (id: string) => `org:${id}`;

/** Keys that grant sight of a document. */
export function documentAccessKeys(
  doc: Pick<RecordDocument, 'visibility' | 'ownerId' | 'organisationId' | 'sharedWithUserIds' | 'sharedWithOrganisationIds' | 'ownerOnly'>,
): string[] {
  // An owner-only record (lineage): its owner's key alone, whatever its visibility says.
  if (doc.ownerOnly) return doc.ownerId ? [userKey(doc.ownerId)] : [];
  // PR: the owner and the owner's organisation; EV adds everyone; CU adds the listed users and organisations.
  const users = [doc.ownerId];
  const organisations = [doc.organisationId];
  if (doc.visibility === 'CU') {
    users.push(...doc.sharedWithUserIds);
    organisations.push(...doc.sharedWithOrganisationIds);
  }
  const keys = [...users.filter(Boolean).map(userKey), ...organisations.filter(Boolean).map(organisationKey)];
  if (doc.visibility === 'EV') keys.push(EVERYONE_KEY);
  return [...new Set(keys)];
}

/** Keys a viewer holds; an anonymous visitor (null) holds only the key to EV documents. */
export function viewerAccessKeys(viewer: SearchViewer | null): string[] {
  if (!viewer) return [EVERYONE_KEY];
  return [EVERYONE_KEY, userKey(viewer.userId), organisationKey(viewer.organisationId)];
}
