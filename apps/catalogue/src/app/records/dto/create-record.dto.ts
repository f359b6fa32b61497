import { z } from 'zod';
import {
  accessFeeField, accessField, blankToUndefined, booleanField, currencyField, customFieldsField, DEFAULT_ACCESS_CURRENCY, nameField, policyField,
  sourceField, textField,
} from './record-fields';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/**
 * The fields of POST /api/records/ (spec section 7; defaults from section 3 "Index form defaults").
 * summaryList, encryptList and formatList (private columns) are accepted and ignored for now.
 */
export const createRecordSchema = z.object({
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
});

export type CreateRecordDto = z.output<typeof createRecordSchema>;
