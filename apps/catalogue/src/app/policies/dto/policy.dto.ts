import { z } from 'zod';
import { withoutBidiControls } from '@dc/contracts';
import { pagedSchema } from '@dc/platform';
import { MAX_NAME_LENGTH } from '../../record-model/record-fields';
import type { PolicyRequirement } from '../policy';

export const MAX_REQUIREMENTS = 50;
export const REQUIRED = 'This field is required.';

/** A required name (of a policy or a project): missing or blank says so once. */
export const requiredName = withoutBidiControls(z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED, abort: true })).max(
  MAX_NAME_LENGTH,
  `Ensure this field has no more than ${MAX_NAME_LENGTH} characters.`,
);
export const MAX_REQUIREMENT_LENGTH = 2_000;

const topicField = z
  .string({ error: 'Not a valid string.' })
  .trim()
  .min(1, 'A topic may not be blank.')
  .max(MAX_NAME_LENGTH, `A topic has at most ${MAX_NAME_LENGTH} characters.`);
const requirementField = z
  .string({ error: 'Not a valid string.' })
  .trim()
  .min(1, 'A requirement may not be blank.')
  .max(MAX_REQUIREMENT_LENGTH, `A requirement has at most ${MAX_REQUIREMENT_LENGTH} characters.`);
/** The Yes/No requestor option: yes/no, or a boolean. */
const agreeField = z.union([z.boolean(), z.string()]).transform((value, ctx) => {
  const text = typeof value === 'boolean' ? (value ? 'yes' : 'no') : value.trim().toLowerCase();
  if (text === 'yes' || text === 'no') return text;
  ctx.addIssue({ code: 'custom', message: 'The requestor option must be "yes" or "no".' });
  return z.NEVER;
});

const row = z
  .object(
    { topic: topicField.optional(), object: topicField.optional(), requirement: requirementField, agree: agreeField.optional(), answer: agreeField.optional() },
    { error: 'Each requirement is {"topic", "requirement", "agree"}.' },
  )
  .refine((r) => r.topic !== undefined || r.object !== undefined, 'A topic may not be blank.')
  .transform((r): PolicyRequirement => ({ topic: (r.topic ?? r.object)!, requirement: r.requirement, agree: r.agree ?? r.answer ?? 'yes' }));

/** policyFields: a list of {topic, requirement, agree} rows, or a {topic: requirement} object (agree "yes"). */
const ROWS = 'Requirements must be a list of {"topic", "requirement", "agree"} rows.';
const policyFieldsField = z.preprocess(
  (value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).map(([topic, requirement]) => ({ topic, requirement, agree: 'yes' }))
      : value,
  z
    .array(row, { error: (issue) => (issue.input === undefined ? REQUIRED : ROWS) })
    .refine((rows) => rows.length >= 1, 'Add at least one requirement.')
    .refine((rows) => rows.length <= MAX_REQUIREMENTS, `At most ${MAX_REQUIREMENTS} requirements.`),
);

/** POST /api/policies/ and PUT /api/policies/{id} (spec: policyName, policyFields); name and fields are accepted too. */
export const policySchema = z.preprocess(
  (body) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
    const { name, fields, ...rest } = body as Record<string, unknown>;
    return { policyName: name, policyFields: fields, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) };
  },
  z.object({ policyName: requiredName, policyFields: policyFieldsField }, { error: 'Expected a JSON object.' }),
);
export type PolicyDto = z.output<typeof policySchema>;

/** A policy as the API answers it (spec section 3, Policy). */
export const policyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string().describe('username of the author'),
  owner_id: z.string(),
  created: z.string(),
  changed: z.string(),
  fields: z.array(z.object({ topic: z.string(), requirement: z.string(), agree: z.enum(['yes', 'no']) })),
  can_edit: z.boolean(),
});
export const policyPageSchema = pagedSchema(policyViewSchema);
export const policyExample = {
  id: '0b7f3c1e-8d2a-4f5b-9c6d-1e2f3a4b5c6d',
  name: 'Research only',
  owner: 'ada',
  owner_id: '5e8c2a7b-1d3f-4a6e-8b9c-0d1e2f3a4b5c',
  created: '2026-11-25T03:00:00.000Z',
  changed: '2026-11-25T03:00:00.000Z',
  fields: [{ topic: 'Ethics', requirement: 'An approved ethics protocol', agree: 'yes' }],
  can_edit: true,
};
