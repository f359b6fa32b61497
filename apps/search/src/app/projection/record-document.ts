import type { RecordSnapshot } from '@dc/contracts';
import type { RecordDocument } from '@dc/search-index';

/** Names the search service keeps from identity's events; they win over the copies in a record snapshot. */
export interface DirectoryNames {
  username?: string;
  organisationName?: string;
}

/**
 * The index's key of a project a record is in: a project is its organisation's, so the key names the
 * project's organisation and the Workspace's project filter (which asks with the caller's) lists it
 * to that organisation only, whichever organisation's records its members filed into it.
 */
export const projectKey = (organisationId: string, groupId: string) => `${organisationId}/${groupId}`;

/** The record's projects as index keys; a project an older event did not name the organisation of is taken as the record's. */
function projectKeys(record: RecordSnapshot): string[] {
  const organisationOf = new Map(record.projects.map((p) => [p.id, p.organisationId]));
  return record.groupIds.map((groupId) => projectKey(organisationOf.get(groupId) ?? record.organisationId, groupId));
}

/** A record card's index document: the searched fields, and everything else a card shows (spec section 2, Record card). */
export function toDocument(record: RecordSnapshot, names: DirectoryNames = {}): RecordDocument {
  return {
    id: record.recordId,
    name: record.name,
    altName: record.altName || undefined,
    description: record.description,
    headers: record.headers,
    words: record.words,
    ownerId: record.ownerId,
    organisationId: record.organisationId,
    visibility: record.visibility,
    sharedWithUserIds: record.sharedWithUserIds,
    sharedWithOrganisationIds: record.sharedWithOrganisationIds,
    ...(record.ownerOnly && { ownerOnly: true }),
    groupIds: projectKeys(record),
    createdAt: record.createdAt,
    changedAt: record.changedAt,
    card: {
      user: names.username ?? record.ownerUsername,
      organisation: { id: record.organisationId, name: names.organisationName ?? record.organisationName },
      origin: record.origin,
      type: record.type,
      size: record.size,
      version: record.version,
      access: record.access,
      accessFee: record.accessFee,
      currency: record.currency,
      policy: record.policyId,
      total_rows: record.totalRows,
      file_count: record.files.length,
      // Headers of hashed columns: the list decides from them whether two records can be linked.
      enc_headers: record.encryptedHeaders,
    },
  };
}

/** The document with its owner's new username on the card, or null when the card already shows it. */
export function withOwnerName(doc: RecordDocument, username: string): RecordDocument | null {
  if (doc.card.user === username) return null;
  return { ...doc, card: { ...doc.card, user: username } };
}

/** The document with its organisation's new name on the card, or null when the card already shows it. */
export function withOrganisationName(doc: RecordDocument, name: string): RecordDocument | null {
  const current = doc.card.organisation as { id?: string; name?: string } | undefined;
  if (current?.name === name) return null;
  return { ...doc, card: { ...doc.card, organisation: { id: doc.organisationId, name } } };
}
