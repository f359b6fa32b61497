import { z } from 'zod';
import { MAX_CUSTOM_FIELDS, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, textField } from '../../record-model/record-fields';
import { requiredName } from '../../policies/dto/policy.dto';
import type { GroupField } from '../group';

export const MAX_RECORD_IDS = 500;

const text = z.union([z.string(), z.number(), z.boolean(), z.null()]).transform((v) => (v === null ? '' : String(v).trim()));
const label = z
  .string({ error: 'A label must be text.' })
  .trim()
  .min(1, 'A label may not be blank.')
  .max(MAX_NAME_LENGTH, `A label has at most ${MAX_NAME_LENGTH} characters.`);

/** groupFields: a list of {label, text} (or {label, value}), or a {label: text} object. */
const groupFieldsField = z
  .union(
    [
      z.array(
        z.object({ label, text: text.optional(), value: text.optional() }).transform((f): GroupField => ({ label: f.label, text: f.text ?? f.value ?? '' })),
      ),
      z.record(z.string(), text).transform((map): GroupField[] => Object.entries(map).map(([l, t]) => ({ label: l.trim(), text: t }))),
    ],
    { error: 'Fields must be a list of {"label", "text"} pairs.' },
  )
  .refine((fields) => fields.length <= MAX_CUSTOM_FIELDS, `At most ${MAX_CUSTOM_FIELDS} fields.`)
  .refine((fields) => fields.every((f) => f.text.length <= MAX_TEXT_LENGTH), `A text has at most ${MAX_TEXT_LENGTH} characters.`)
  .refine((fields) => new Set(fields.map((f) => f.label.toLowerCase())).size === fields.length, 'Each label may appear once.');

const recordIds = z
  .union([z.array(z.string({ error: 'Record ids must be text.' })), z.string().transform((v) => [v])], { error: 'Give a list of record ids.' })
  .refine((ids) => ids.length <= MAX_RECORD_IDS, `At most ${MAX_RECORD_IDS} records at a time.`)
  .transform((ids) => [...new Set(ids.map((id) => id.trim().toLowerCase()))]);

const fields = {
  groupName: requiredName,
  groupDescription: z.preprocess((v) => (v === null ? '' : v), textField).optional(),
  groupFields: groupFieldsField.optional(),
};

/** Accepts the spec's names (groupName, groupDescription, groupFields) or name, description, fields. */
const aliases = (body: unknown) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { name, description, fields: extra, ...rest } = body as Record<string, unknown>;
  return { groupName: name, groupDescription: description, groupFields: extra, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
};

/** POST /api/groups/: a name, an optional description and extra fields. */
export const createGroupSchema = z.preprocess(aliases, z.object(fields, { error: 'Expected a JSON object.' }));
export type CreateGroupDto = z.output<typeof createGroupSchema>;

/** PUT /api/groups/{id}/: any of the same fields, and records to add or remove. */
export const updateGroupSchema = z.preprocess(
  aliases,
  z.object(
    { ...fields, groupName: requiredName.optional(), addRecordIds: recordIds.optional(), removeRecordIds: recordIds.optional() },
    { error: 'Expected a JSON object.' },
  ),
);
export type UpdateGroupDto = z.output<typeof updateGroupSchema>;

/** A project as the API answers it (spec section 3, Group/project). */
export const groupViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  created: z.string(),
  changed: z.string(),
  fields: z.record(z.string(), z.string()).describe('label → text'),
  owner: z.string(),
  owner_id: z.string(),
  can_edit: z.boolean(),
  record_count: z.number().int(),
});
export const groupListSchema = z.object({
  status: z.literal('success'),
  groups: z.array(groupViewSchema),
  checked: z.array(z.string()).describe('with `record`: ids of the projects holding it'),
});
