import { z } from 'zod';
import { linkageKeyId } from '@dc/extraction';
import {
  accessFeeField,
  accessField,
  blankToUndefined,
  booleanField,
  currencyField,
  customFieldsField,
  DEFAULT_ACCESS_CURRENCY,
  nameField,
  policyField,
  sourceField,
  textField,
} from '../record-model/record-fields';
import { checkPrivateColumns, privateColumnFields, privateColumnsOf } from '../record-model/private-columns';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

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
