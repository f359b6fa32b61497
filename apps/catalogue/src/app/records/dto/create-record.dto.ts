import { z } from 'zod';
import type { PrivateColumnChoices } from '../record';
import {
  accessFeeField, accessField, blankToUndefined, booleanField, columnKey, columnLabel, columnListField, currencyField, customFieldsField, DEFAULT_ACCESS_CURRENCY,
  formatListField, nameField, policyField, sourceField, textField,
} from './record-fields';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/**
 * The fields of POST /api/records/ (spec section 7; defaults from section 3 "Index form defaults").
 *
 * extractFromURL (YES/NO, or true/false): fetch the file at `source` (http or https, public
 * addresses only, within the upload size limit) and index it as if it had been uploaded.
 *
 * Private columns (spec: share formats exclude, mask or plain, plus a separate hash option), as JSON
 * text in a multipart form or as values in a JSON body; a column is a position from 0 (a number) or
 * a header name (a string, matched ignoring case):
 * - encryptList: columns to hash, e.g. `[0, "Email"]`. Their values are replaced by keyed hashes
 *   (HMAC-SHA256 under the product's key) before extraction describes them, so equal values in two
 *   records hash equally and can be linked, and no raw value reaches META.
 * - formatList: `[{"column": "Name", "format": "mask"}, {"column": 3, "format": "exclude"}]` or
 *   `{"Name": "mask"}`. Columns not listed are plain.
 * - summaryList: masked columns whose MIN, MAX, MEAN and STD stay visible, e.g. `["Salary"]`.
 * They apply to every table of the record's files; a column none of them has is reported in
 * META.ERRORS. META then holds ENCRYPTED_COLS and SHARE_FORMATS.
 */
export const createRecordSchema = z
  .object({
    extractOption: optional(z.enum(['minimal', 'metadata', 'samples'], { error: 'Select minimal, metadata or samples.' })).transform((v) => v ?? 'metadata'),
    name: optional(nameField),
    allowDuplicate: optional(booleanField('Must be "true" or "false".')).transform((v) => v ?? false),
    deleteFile: optional(booleanField('Must be "true" or "false".')).transform((v) => v ?? false),
    description: optional(textField).transform((v) => v ?? ''),
    provenance: optional(textField).transform((v) => v ?? ''),
    source: optional(sourceField).transform((v) => v ?? ''),
    recordFields: optional(customFieldsField).transform((v) => v ?? []),
    policy: optional(policyField).transform((v) => v ?? null),
    access: optional(accessField).transform((v) => v ?? 'RE'),
    accessFee: optional(accessFeeField).transform((v) => v ?? null),
    currency: optional(currencyField).transform((v) => v ?? DEFAULT_ACCESS_CURRENCY),
    extractFromURL: optional(booleanField('Must be "YES" or "NO".')).transform((v) => v ?? false),
    saveSeparately: optional(booleanField('Must be "true" or "false".')).transform((v) => v ?? true),
    encryptList: optional(columnListField).transform((v) => v ?? []),
    formatList: optional(formatListField).transform((v) => v ?? []),
    summaryList: optional(columnListField).transform((v) => v ?? []),
  })
  .superRefine((dto, ctx) => {
    const excluded = new Set(dto.formatList.filter((f) => f.format === 'exclude').map((f) => columnKey(f.column)));
    for (const column of dto.encryptList) {
      if (excluded.has(columnKey(column))) ctx.addIssue({ code: 'custom', path: ['encryptList'], message: `${columnLabel(column)} is excluded: it cannot also be hashed.` });
    }
  })
  .transform(({ encryptList, formatList, summaryList, ...dto }) => ({ ...dto, privateColumns: privateColumnsOf(encryptList, formatList, summaryList) }));

/** null when nothing is hashed, masked or excluded (a summary list alone changes nothing). */
function privateColumnsOf(hash: PrivateColumnChoices['hash'], formats: PrivateColumnChoices['formats'], summary: PrivateColumnChoices['summary']): PrivateColumnChoices | null {
  return hash.length || formats.some((f) => f.format !== 'plain') ? { hash, formats, summary } : null;
}

export type CreateRecordDto = z.output<typeof createRecordSchema>;
