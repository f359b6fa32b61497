// Private columns (spec: exclude, mask or plain, plus a separate hash option): which columns of a
// table are hashed, masked or left out, and the keyed hash that replaces a hashed column's values.
//
// Hashing is keyed with a linkage key (docs/private-linkage.md): 32 random bytes that an organisation
// holds and shares with the partners it links data with; the product never stores it. Equal values
// hash equally under one key, whichever path hashed them (the browser's private indexing, or the
// server's extraction of uploads, SQL tables and S3 objects), and guessing values needs the key.
import { createHash, createHmac } from 'node:crypto';
import { CLK_PATTERN, clkEncoder } from './clk';
import type { ColumnRef, PrivateColumns, ShareFormat } from './types';

export interface ColumnPolicy {
  format: ShareFormat;
  /** Replaces a value by its keyed hash; null when the column is not hashed. */
  hash: ((text: string) => string) | null;
  /** A masked column keeps MIN, MAX, MEAN and STD. */
  summary: boolean;
  /** The hash is a CLK (fuzzy: a keyed Bloom filter of bigrams, clk.ts), not an exact keyed hash. */
  clk: boolean;
  /** With a hash: the id of the linkage key it is keyed with. */
  linkageKeyId?: string;
}

export const PLAIN: ColumnPolicy = Object.freeze({ format: 'plain', hash: null, summary: true, clk: false });

/** The most private format wins when several entries pick the same column. */
const PRIVACY_RANK: Record<ShareFormat, number> = { plain: 0, mask: 1, exclude: 2 };

/** HMAC-SHA256 of the text, 32 hex characters (128 bits): equal values give equal hashes under one key. */
export function keyedHash(key: Uint8Array | string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex').slice(0, 32);
}

/** A linkage key as people pass it around: 32 bytes in base64url (43 characters). */
export const LINKAGE_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The key's bytes, or null when the text is not a linkage key. */
export function parseLinkageKey(text: string): Uint8Array | null {
  const trimmed = text.trim();
  if (!LINKAGE_KEY_PATTERN.test(trimmed)) return null;
  const bytes = Buffer.from(trimmed, 'base64url');
  return bytes.length === 32 ? new Uint8Array(bytes) : null;
}

/**
 * The key's public name, 16 hex characters of SHA-256 over a fixed label and the key: records hashed
 * under the same key carry the same id (so their hashes can be compared), and it reveals nothing
 * that helps to find the key. The browser computes the same (apps/web private indexing).
 */
export function linkageKeyId(key: Uint8Array): string {
  return createHash('sha256').update('data-catalogue linkage key id\n').update(key).digest('hex').slice(0, 16);
}

/** Hashes of keyedHash: 32 lower-case hex characters. */
export const HASH_PATTERN = /^[0-9a-f]{32}$/;

const refKey = (ref: ColumnRef): string => (typeof ref === 'number' ? `#${ref}` : `=${ref.trim().toLowerCase()}`);

/**
 * The private-column choices of one extraction, shared by all its tables (a workbook's sheets, an
 * archive's members): a column is picked by its position in its table or its header name, ignoring
 * case. Remembers which choices matched a column, so that the others can be reported.
 */
export class ColumnPrivacy {
  private readonly matched = new Set<string>();
  private readonly hashValue: (text: string) => string;
  private readonly clkValue: (text: string) => string;

  private readonly notHashes = new Map<string, number>();
  private readonly clkHeaders = new Set<string>();

  constructor(readonly choices: PrivateColumns) {
    const key = choices.linkageKey;
    if ((choices.hash?.length ?? 0) > 0 && !key) throw new Error('Hashed columns need a linkage key');
    this.hashValue = (text) => keyedHash(key as Uint8Array, text);
    const encode = key ? clkEncoder(key) : null;
    this.clkValue = (text) => (encode as (text: string) => string)(text);
  }

  /** False when nothing is hashed, masked or excluded: tables are then described as usual. */
  static isActive(choices: PrivateColumns | undefined): choices is PrivateColumns {
    return !!choices && ((choices.hash?.length ?? 0) > 0 || (choices.prehashed?.length ?? 0) > 0 || (choices.formats ?? []).some((f) => f.format !== 'plain'));
  }

  /** The id of the key the hashes were made with (given for columns hashed in the browser). */
  keyId(): string | undefined {
    if (this.choices.linkageKey) return linkageKeyId(this.choices.linkageKey);
    return this.choices.linkageKeyId;
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
    const prehashed = !hashed && (this.choices.prehashed ?? []).filter(picks).length > 0;
    const summary = (this.choices.summary ?? []).filter(picks).length > 0;
    if (format === 'plain' && !hashed && !prehashed) return PLAIN;
    // Fuzzy applies to hashed columns only (a CLK is a kind of keyed hash).
    const clk = (hashed || prehashed) && (this.choices.fuzzy ?? []).filter(picks).length > 0;
    if (clk) this.clkHeaders.add(header);
    const hash = hashed ? (clk ? this.clkValue : this.hashValue) : prehashed ? this.checkedHash(header, clk ? CLK_PATTERN : HASH_PATTERN) : null;
    return { format, hash, summary: format === 'plain' || summary, clk, ...(hash && { linkageKeyId: this.keyId() }) };
  }

  /**
   * A column hashed before it arrived (private indexing in the browser) is described as it is; a
   * value that is not such a hash (or CLK) is still not shown, and ERRORS says how many there were.
   */
  private checkedHash(header: string, pattern: RegExp): (text: string) => string {
    return (text) => {
      if (pattern.test(text)) return text;
      this.notHashes.set(header, (this.notHashes.get(header) ?? 0) + 1);
      return '';
    };
  }

  /** Headers of the columns hashed as CLKs (META CLK_COLS). */
  clkColumns(): string[] {
    return [...this.clkHeaders];
  }

  /** The choices that picked no column of any table, and columns said to be hashed that were not, as messages for ERRORS. */
  unmatched(): string[] {
    const refs = [
      ...(this.choices.hash ?? []),
      ...(this.choices.prehashed ?? []),
      ...(this.choices.fuzzy ?? []),
      ...(this.choices.formats ?? []).filter((f) => f.format !== 'plain').map((f) => f.column),
      ...(this.choices.summary ?? []),
    ];
    const seen = new Set<string>();
    const messages: string[] = [];
    for (const ref of refs) {
      const key = refKey(ref);
      if (this.matched.has(key) || seen.has(key)) continue;
      seen.add(key);
      messages.push(
        typeof ref === 'number' ? `Private columns: this file has no column at position ${ref}` : `Private columns: this file has no column named "${ref}"`,
      );
    }
    for (const [header, count] of this.notHashes) messages.push(`Private columns: ${count} values of "${header}" were not hashes; they are not shown`);
    return messages;
  }
}

/** Character mask of a value: X for upper-case letters, x for lower-case, 9 for digits. */
export function maskOf(value: string): string {
  return value
    .replace(/\p{Lu}/gu, 'X')
    .replace(/\p{Ll}/gu, 'x')
    .replace(/\p{N}/gu, '9');
}
