/**
 * Statement helpers of the PostgreSQL adapter (postgres-search-index.ts) and of the in-process
 * adapter's store (in-process-store.ts): neither imports the other.
 */
import { anyWordParts } from './ranking-rules';
import type { RecordDocument } from './search-index';
import { documentAccessKeys } from './visibility';

/**
 * The values of one search, by name. Statements refer to them as `$name`, and each statement is sent
 * with only the values it uses (PostgreSQL rejects a parameter a statement does not mention).
 */
export class Params {
  private readonly values = new Map<string, unknown>();

  set(name: string, value: unknown): string {
    this.values.set(name, value);
    return `$${name}`;
  }

  /** The statement with positional placeholders, and its values. */
  bind(text: string): [string, unknown[]] {
    const used: string[] = [];
    const positional = text.replace(/\$([a-z]\w*)/g, (_match, name: string) => {
      if (!this.values.has(name)) throw new Error(`no value for $${name}`);
      const at = used.indexOf(name);
      return `$${at >= 0 ? at + 1 : used.push(name)}`;
    });
    return [positional, used.map((name) => this.values.get(name))];
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Turns free text into websearch_to_tsquery input meaning "any of these words" (anyWordParts).
 * Returns '' when nothing word-like is left.
 */
export function anyWordTerms(text: string): string {
  return anyWordParts(text).join(' or ');
}

/**
 * The rows both adapters store documents as, sent as one JSON parameter (a statement per batch):
 * the searched columns of each document, and the document as given.
 */
export function documentRowsJson(docs: RecordDocument[]): string {
  const rows = docs.map((doc) => ({
    id: doc.id,
    name: doc.name,
    alt_name: doc.altName ?? null,
    description: doc.description ?? '',
    extra: [...(doc.headers ?? []), ...(doc.words ?? [])].join(' '),
    owner_id: doc.ownerId,
    access_keys: documentAccessKeys(doc),
    group_ids: doc.groupIds ?? [],
    changed_at: doc.changedAt,
    doc,
  }));
  return JSON.stringify(rows);
}

/** The rows of documentRowsJson() as a relation `r`, the JSON being the statement's `$1`. */
export const DOCUMENT_ROWS = `jsonb_to_recordset($1::jsonb) AS r(id text, name text, alt_name text, description text, extra text, owner_id text,
  access_keys text[], group_ids text[], changed_at timestamptz, doc jsonb)`;
