import type { RecordSnapshot } from '@dc/contracts';
import type { RecordDocument } from '@dc/search-index';

/** Names the search service keeps from identity's events; they win over the copies in a record snapshot. */
export interface DirectoryNames {
  username?: string;
  organisationName?: string;
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
    groupIds: record.groupIds,
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
