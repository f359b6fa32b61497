import { z } from 'zod';
import { parseLinkageKey } from '@dc/extraction';
import type { PrivateColumnChoices } from './record';
import { blankToUndefined, columnKey, columnLabel, columnListField, formatListField } from './record-fields';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

export const LINKAGE_KEY_INVALID = 'Must be a linkage key: 32 bytes in base64url (43 characters).';
export const LINKAGE_KEY_REQUIRED = 'Give your linkage key to hash columns.';
export const LINKAGE_KEY_ID_REQUIRED = 'Give the id of the linkage key the columns were hashed with.';

const linkageKeyField = z.string({ error: LINKAGE_KEY_INVALID }).transform((text, ctx) => {
  const key = parseLinkageKey(text);
  if (!key) {
    ctx.addIssue({ code: 'custom', message: LINKAGE_KEY_INVALID });
    return z.NEVER;
  }
  return key;
});

const linkageKeyIdField = z
  .string({ error: 'Must be 16 hexadecimal characters.' })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{16}$/, 'Must be 16 hexadecimal characters.');

/**
 * The private-column fields shared by every way of indexing (uploads, SQL tables, S3 objects),
 * as JSON text in a multipart form or as values in a JSON body; a column is a position from 0 (a
 * number) or a header name (a string, matched ignoring case):
 * - encryptList: columns the server hashes (HMAC-SHA256) under `linkageKey`, the owner's linkage
 *   key (base64url, 32 bytes). The key is used for this indexing only and not kept.
 * - hashedList: columns already hashed in the browser under the key whose id is `linkageKeyId`
 *   (private indexing); they are described as hashed and not hashed again.
 * - fuzzyList: columns of encryptList or hashedList hashed as CLKs (fuzzy linkage: a keyed Bloom
 *   filter of the value's character bigrams, so "Jon Smith" links to "John Smith"), not exact hashes.
 * - formatList: `[{"column": "Name", "format": "mask"}]` or `{"Name": "mask"}`; columns not listed are plain.
 * - summaryList: masked columns whose MIN, MAX, MEAN and STD stay visible.
 */
export const privateColumnFields = {
  encryptList: optional(columnListField).transform((v) => v ?? []),
  hashedList: optional(columnListField).transform((v) => v ?? []),
  fuzzyList: optional(columnListField).transform((v) => v ?? []),
  formatList: optional(formatListField).transform((v) => v ?? []),
  summaryList: optional(columnListField).transform((v) => v ?? []),
  linkageKey: optional(linkageKeyField).transform((v) => v ?? null),
  linkageKeyId: optional(linkageKeyIdField).transform((v) => v ?? null),
};

type PrivateColumnInput = { [K in keyof typeof privateColumnFields]: z.output<(typeof privateColumnFields)[K]> };

/** Cross-field rules: a hashed column is not excluded too, hashing needs the key (or its id). */
export function checkPrivateColumns(dto: PrivateColumnInput, ctx: z.RefinementCtx): void {
  const excluded = new Set(dto.formatList.filter((f) => f.format === 'exclude').map((f) => columnKey(f.column)));
  for (const [field, columns] of [
    ['encryptList', dto.encryptList],
    ['hashedList', dto.hashedList],
  ] as const) {
    for (const column of columns) {
      if (excluded.has(columnKey(column)))
        ctx.addIssue({ code: 'custom', path: [field], message: `${columnLabel(column)} is excluded: it cannot also be hashed.` });
    }
  }
  const hashed = new Set([...dto.encryptList, ...dto.hashedList].map(columnKey));
  for (const column of dto.fuzzyList) {
    if (!hashed.has(columnKey(column)))
      ctx.addIssue({ code: 'custom', path: ['fuzzyList'], message: `${columnLabel(column)} is not hashed: only hashed columns can be fuzzy.` });
  }
  if (dto.encryptList.length && !dto.linkageKey) ctx.addIssue({ code: 'custom', path: ['linkageKey'], message: LINKAGE_KEY_REQUIRED });
  if (dto.hashedList.length && !dto.linkageKeyId && !dto.linkageKey) ctx.addIssue({ code: 'custom', path: ['linkageKeyId'], message: LINKAGE_KEY_ID_REQUIRED });
}

/** null when nothing is hashed, masked or excluded (a summary list alone changes nothing). */
export function privateColumnsOf(dto: PrivateColumnInput, keyId: (key: Uint8Array) => string): PrivateColumnChoices | null {
  const { encryptList: hash, hashedList: prehashed, fuzzyList: fuzzy, formatList: formats, summaryList: summary } = dto;
  if (!hash.length && !prehashed.length && !formats.some((f) => f.format !== 'plain')) return null;
  const linkageKeyId = dto.linkageKey && (hash.length || prehashed.length) ? keyId(dto.linkageKey) : prehashed.length ? dto.linkageKeyId : null;
  return { hash, prehashed, ...(fuzzy.length > 0 && { fuzzy }), formats, summary, linkageKeyId };
}
