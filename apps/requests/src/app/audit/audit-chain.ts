import { createHash } from 'node:crypto';

/**
 * The tamper-evident audit trail: each entry carries the hash of the one before it, and its own hash
 * covers its content and that previous hash. Changing, removing or inserting an entry breaks the
 * chain from there on, which verification finds (`npm run audit:verify`).
 */
export const AUDIT_ACTIONS = ['created', 'sent', 'review', 'approved', 'disapproved', 'revoked', 'closed', 'download'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The hash before the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

export interface AuditContent {
  id: string;
  requestId: string;
  recordId: string;
  actorId: string;
  action: AuditAction;
  details: Record<string, string | number | boolean | null>;
  occurredAt: Date;
}

export interface AuditEntry extends AuditContent {
  seq: number;
  prevHash: string;
  hash: string;
}

/** JSON with object keys sorted at every level, so equal content always hashes equally (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What an entry's hash covers, in this order (never to change: stored chains were hashed so), which
 * is also the order of requests.audit_log's columns before hash.
 */
export function chainedFields<D = AuditContent['details']>(entry: Omit<AuditEntry, 'hash' | 'details'> & { details: D }) {
  return [entry.seq, entry.id, entry.requestId, entry.recordId, entry.actorId, entry.action, entry.details, entry.occurredAt, entry.prevHash] as const;
}

export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  const content = chainedFields(entry).map((field) => (field instanceof Date ? field.toISOString() : field));
  return createHash('sha256').update(canonicalJson(content)).digest('hex');
}

/** The next entry of the chain after `previous` (null: the first). */
export function chainEntry(content: AuditContent, previous: Pick<AuditEntry, 'seq' | 'hash'> | null): AuditEntry {
  const unhashed = { ...content, seq: (previous?.seq ?? 0) + 1, prevHash: previous?.hash ?? GENESIS_HASH };
  return { ...unhashed, hash: entryHash(unhashed) };
}

export interface ChainBreak {
  seq: number;
  id: string;
  reason: string;
}

/**
 * Checks entries in order, continuing from `previous` (null: from the start). Returns the first
 * broken entry: its own hash does not match its content, it does not follow the entry before it
 * (previous hash or sequence), so an edited, removed or inserted entry is named.
 */
export function firstBreak(entries: Iterable<AuditEntry>, previous: Pick<AuditEntry, 'seq' | 'hash'> | null): ChainBreak | null {
  let before = previous;
  for (const entry of entries) {
    const expectedSeq = (before?.seq ?? 0) + 1;
    if (entry.seq !== expectedSeq) return { seq: entry.seq, id: entry.id, reason: `expected entry #${expectedSeq} here: an entry was removed or inserted` };
    if (entry.prevHash !== (before?.hash ?? GENESIS_HASH))
      return { seq: entry.seq, id: entry.id, reason: 'its previous hash does not match the entry before it' };
    if (entryHash(entry) !== entry.hash) return { seq: entry.seq, id: entry.id, reason: 'its content does not match its hash (the entry was changed)' };
    before = entry;
  }
  return null;
}
