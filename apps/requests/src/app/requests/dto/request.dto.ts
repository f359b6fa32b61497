import { z } from 'zod';
import { REQUEST_STATUSES } from '@dc/contracts';

export const MAX_TEXT_LENGTH = 5_000;
export const MAX_REASON_LENGTH = 2_000;
const REQUIRED = 'This field is required.';

const text = (max: number) =>
  z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string({ error: 'Not a valid string.' })
      .max(max, `Ensure this field has no more than ${max} characters.`)
      .transform((v) => v.trim()),
  );

/** POST /api/requests/: the record, and status new (the only status a request starts in). */
export const createRequestSchema = z.object(
  {
    record: z.string({ error: REQUIRED }).trim().min(1, REQUIRED),
    status: z.literal('new', { error: 'A request starts in status new.' }).optional(),
    purpose: text(MAX_TEXT_LENGTH).optional(),
    note: text(MAX_TEXT_LENGTH).optional(),
  },
  { error: 'Expected a JSON object.' },
);
export type CreateRequestDto = z.output<typeof createRequestSchema>;

const JSON_CONTENT = 'json_content must be a list of {"object", "requirement", "agree"} items (agree: yes or no).';
const answerItem = z.object({
  object: z.string({ error: JSON_CONTENT }),
  requirement: z.string({ error: JSON_CONTENT }),
  agree: z.preprocess(
    (v) => (v === null || v === undefined ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(['yes', 'no', ''], { error: 'Each answer must be yes or no.' }),
  ),
});
/** json_content as a list, or as JSON text of one (the spec reads it as JSON). */
const jsonContent = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  },
  z.array(answerItem, { error: JSON_CONTENT }),
);

/** PUT /api/requests/{id}/: a status change (spec section 4), and while new the requestor's content. */
export const updateRequestSchema = z.object(
  {
    status: z.enum(REQUEST_STATUSES, { error: `Select one of: ${REQUEST_STATUSES.join(', ')}.` }),
    purpose: text(MAX_TEXT_LENGTH).optional(),
    note: text(MAX_TEXT_LENGTH).optional(),
    access_policies: z
      .array(z.object({ id: z.string().optional(), json_content: jsonContent }), { error: 'access_policies must be a list of {"id", "json_content"}.' })
      .optional(),
    /** approved: when the grant ends (YYYY-MM-DD: the end of that day, UTC). */
    expires_at: z.union([z.string(), z.null()]).optional(),
    /** revoked: why (lands in the message thread). */
    reason: text(MAX_REASON_LENGTH).optional(),
  },
  { error: 'Expected a JSON object.' },
);
export type UpdateRequestDto = z.output<typeof updateRequestSchema>;
