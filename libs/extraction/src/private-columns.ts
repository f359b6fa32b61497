// Private columns (spec: exclude, mask or plain, plus a separate hash option): which columns of a
// table are hashed, masked or left out, and the keyed hash that replaces a hashed column's values.
import { createHmac } from 'node:crypto';
import type { ColumnRef, PrivateColumns, ShareFormat } from './types';

export interface ColumnPolicy {
  format: ShareFormat;
  /** Replaces a value by its keyed hash; null when the column is not hashed. */
  hash: ((text: string) => string) | null;
  /** A masked column keeps MIN, MAX, MEAN and STD. */
  summary: boolean;
}

export const PLAIN: ColumnPolicy = Object.freeze({ format: 'plain', hash: null, summary: true });

/** The most private format wins when several entries pick the same column. */
const PRIVACY_RANK: Record<ShareFormat, number> = { plain: 0, mask: 1, exclude: 2 };

/** HMAC-SHA256 of the text, 32 hex characters (128 bits): equal values give equal hashes under one key. */
export function keyedHash(key: Uint8Array | string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex').slice(0, 32);
}

const refKey = (ref: ColumnRef): string => (typeof ref === 'number' ? `#${ref}` : `=${ref.trim().toLowerCase()}`);

/**
 * The private-column choices of one extraction, shared by all its tables (a workbook's sheets, an
 * archive's members): a column is picked by its position in its table or its header name, ignoring
 * case. Remembers which choices matched a column, so that the others can be reported.
 */
export class ColumnPrivacy {
  private readonly matched = new Set<string>();
  private readonly hashValue: (text: string) => string;

  constructor(private readonly choices: PrivateColumns) {
    const key = choices.hashKey;
    this.hashValue = (text) => keyedHash(key, text);
  }

  /** False when nothing is hashed, masked or excluded: tables are then described as usual. */
  static isActive(choices: PrivateColumns | undefined): choices is PrivateColumns {
    return !!choices && ((choices.hash?.length ?? 0) > 0 || (choices.formats ?? []).some((f) => f.format !== 'plain'));
  }

  /** The policy of the column at `index` (undefined when positions are not known yet: HL7) named `header`. */
  policyFor(header: string, index?: number): ColumnPolicy {
    const picks = (ref: ColumnRef): boolean => {
      const hit = typeof ref === 'number' ? ref === index : ref.trim().toLowerCase() === header.trim().toLowerCase();
      if (hit) this.matched.add(refKey(ref));
      return hit;
    };
    let format: ShareFormat = 'plain';
    for (const choice of this.choices.formats ?? []) {
      if (picks(choice.column) && PRIVACY_RANK[choice.format] > PRIVACY_RANK[format]) format = choice.format;
    }
    const hashed = (this.choices.hash ?? []).filter(picks).length > 0;
    const summary = (this.choices.summary ?? []).filter(picks).length > 0;
    if (format === 'plain' && !hashed) return PLAIN;
    return { format, hash: hashed ? this.hashValue : null, summary: format === 'plain' || summary };
  }

  /** The choices that picked no column of any table, as messages for ERRORS. */
  unmatched(): string[] {
    const refs = [...(this.choices.hash ?? []), ...(this.choices.formats ?? []).filter((f) => f.format !== 'plain').map((f) => f.column), ...(this.choices.summary ?? [])];
    const seen = new Set<string>();
    const messages: string[] = [];
    for (const ref of refs) {
      const key = refKey(ref);
      if (this.matched.has(key) || seen.has(key)) continue;
      seen.add(key);
      messages.push(typeof ref === 'number' ? `Private columns: this file has no column at position ${ref}` : `Private columns: this file has no column named "${ref}"`);
    }
    return messages;
  }
}

/** Character mask of a value: X for upper-case letters, x for lower-case, 9 for digits. */
export function maskOf(value: string): string {
  return value.replace(/\p{Lu}/gu, 'X').replace(/\p{Ll}/gu, 'x').replace(/\p{N}/gu, '9');
}
