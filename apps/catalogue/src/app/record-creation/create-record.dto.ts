import { z } from 'zod';
import { linkageKeyId } from '@dc/extraction';
import {
  accessFeeField,
  accessField,
  blankToUndefined,
  booleanField,
  currencyField,
  customFieldsField,
  extractOptionField,
  DEFAULT_ACCESS_CURRENCY,
  MAX_CUSTOM_FIELDS,
  nameField,
  policyField,
  sourceField,
  textField,
} from '../record-model/record-fields';
import { checkPrivateColumns, privateColumnFields, privateColumnsOf } from '../record-model/private-columns';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

export const UPLOAD_VISIBILITY_CHOICES = '"visibility" must be PR (Private) or EV (Everyone).';
export const UPLOAD_VISIBILITY_CUSTOM =
  'Custom visibility needs the organisations and users who may see the record: create the record, then choose them with Edit.';
export const FILE_DETAILS_SHAPE = 'fileDetails must be a JSON list with one {"name", "description"} object per file, in the order the files are sent.';

/** Who sees a new record (beyond the spec, optional): PR or EV, or their labels; CU is chosen after creation. */
const visibilityField = z
  .string({ error: UPLOAD_VISIBILITY_CHOICES })
  .transform((value) => ({ private: 'PR', everyone: 'EV', custom: 'CU' })[value.trim().toLowerCase()] ?? value.trim().toUpperCase())
  .pipe(z.enum(['PR', 'EV', 'CU'], { error: UPLOAD_VISIBILITY_CHOICES }))
  .refine((value) => value !== 'CU', UPLOAD_VISIBILITY_CUSTOM)
  .transform((value) => value as 'PR' | 'EV');

export interface FileDetails {
  name?: string;
  description?: string;
}

const detailName = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), nameField.optional());
const detailText = z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), textField.optional());

/**
 * Per-file names and descriptions (beyond the spec, optional): a JSON list, one {name, description}
 * per uploaded file in the order the files are sent; a blank or missing one falls back to the
 * form's name (or the file's) and description. Each problem names the file's position.
 */
const fileDetailsField = z.unknown().transform((value, ctx): FileDetails[] => {
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      list = undefined;
    }
  }
  if (!Array.isArray(list) || list.length > MAX_CUSTOM_FIELDS) {
    ctx.addIssue({ code: 'custom', message: FILE_DETAILS_SHAPE });
    return z.NEVER;
  }
  const details: FileDetails[] = [];
  list.forEach((entry: unknown, index) => {
    const file = `File ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      ctx.addIssue({ code: 'custom', message: `${file}: ${FILE_DETAILS_SHAPE}` });
      return;
    }
    const fields = entry as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((key) => key !== 'name' && key !== 'description');
    if (unknown.length)
      ctx.addIssue({ code: 'custom', message: `${file}: only "name" and "description" are taken, not ${unknown.map((k) => `"${k}"`).join(', ')}.` });
    const name = detailName.safeParse(fields.name);
    const description = detailText.safeParse(fields.description);
    if (!name.success) ctx.addIssue({ code: 'custom', message: `${file}: name: ${name.error.issues[0].message}` });
    if (!description.success) ctx.addIssue({ code: 'custom', message: `${file}: description: ${description.error.issues[0].message}` });
    if (name.success && description.success) details.push({ name: name.data, description: description.data });
  });
  return details;
});

/**
 * The fields of POST /api/records/ (spec section 7; defaults from section 3 "Index form defaults").
 *
 * extractFromURL (YES/NO, or true/false): fetch the file at `source` (http or https, public
 * addresses only, within the upload size limit) and index it as if it had been uploaded.
 *
 * Private columns (spec: share formats exclude, mask or plain, plus a separate hash option): see
 * privateColumnFields (encryptList with the owner's linkageKey, hashedList with linkageKeyId for
 * columns hashed in the browser, fuzzyList for columns hashed as CLKs, formatList, summaryList). Hashed values replace the raw ones before
 * extraction describes them, so equal values hash equally in every record hashed under the same
 * key, and no raw value reaches META. They apply to every table of the record's files; a column none
 * of them has is reported in META.ERRORS. META then holds ENCRYPTED_COLS, SHARE_FORMATS and LINKAGE_KEY_ID (and CLK_COLS with fuzzyList).
 */
export const createRecordSchema = z
  .object({
    extractOption: extractOptionField,
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
    visibility: optional(visibilityField)
      .transform((v) => v ?? null)
      .describe('Beyond the spec, optional: PR (Private, the default) or EV (Everyone). BASIC clients may send EV only.'),
    fileDetails: optional(fileDetailsField)
      .transform((v) => v ?? null)
      .describe(
        'Beyond the spec, optional: a JSON list with one {"name", "description"} per uploaded file, in order (saveSeparately=true). Blank entries fall back to name/description, then the file name.',
      ),
    ...privateColumnFields,
  })
  .superRefine(checkPrivateColumns)
  .transform(({ encryptList, hashedList, fuzzyList, formatList, summaryList, linkageKey, linkageKeyId: keyId, ...dto }) => ({
    ...dto,
    privateColumns: privateColumnsOf({ encryptList, hashedList, fuzzyList, formatList, summaryList, linkageKey, linkageKeyId: keyId }, linkageKeyId),
    // Used to hash encryptList's columns only; sealed to the record until its files are extracted.
    linkageKey: encryptList.length ? linkageKey : null,
  }));

export type CreateRecordDto = z.output<typeof createRecordSchema>;
