import { z } from 'zod';
import {
  accessFeeField,
  accessField,
  currencyField,
  customFieldsField,
  groupsField,
  nameField,
  policyField,
  sourceField,
  textField,
} from '../../record-model/record-fields';

/**
 * PUT /api/records/{id}/: every field optional, absent = unchanged. The fields may also come nested
 * under "record" (the spec's payload is "record, access, groups"); top-level ones win.
 * accessFee null or "" removes the fee.
 */
export const updateRecordSchema = z.preprocess(
  (body) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
    const { record, ...rest } = body as Record<string, unknown>;
    return record && typeof record === 'object' && !Array.isArray(record) ? { ...(record as Record<string, unknown>), ...rest } : rest;
  },
  z.object(
    {
      name: nameField.optional(),
      alt_name: textField.max(255, 'Ensure this field has no more than 255 characters.').optional(),
      description: textField.optional(),
      provenance: textField.optional(),
      source: sourceField.optional(),
      recordFields: customFieldsField.optional(),
      RECORD: customFieldsField.optional(),
      access: accessField.optional(),
      accessFee: z.preprocess((v) => (v === '' ? null : v), accessFeeField.nullable()).optional(),
      currency: currencyField.optional(),
      policy: policyField.optional(),
      groups: groupsField.optional(),
      visibility: z.enum(['PR', 'EV', 'CU'], { error: 'Select PR, EV or CU.' }).optional(),
    },
    { error: 'Expected a JSON object.' },
  ),
);

export type UpdateRecordDto = z.output<typeof updateRecordSchema>;
