import { z } from 'zod';

export const MAX_MESSAGE_LENGTH = 5_000;
const REQUIRED = 'This field is required.';

/** POST /api/request-messages/: the request and a non-empty message of at most 5,000 characters. */
export const postMessageSchema = z.object(
  {
    request: z.string({ error: REQUIRED }).trim().min(1, REQUIRED),
    message: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, { error: 'This field may not be blank.', abort: true })
      .max(MAX_MESSAGE_LENGTH, `Ensure this field has no more than ${MAX_MESSAGE_LENGTH} characters.`),
  },
  { error: 'Expected a JSON object.' },
);
export type PostMessageDto = z.output<typeof postMessageSchema>;

/** POST /api/request-messages/read/: the request, and optionally the newest message read (else all of the thread). */
export const markReadSchema = z.object(
  {
    request: z.string({ error: REQUIRED }).trim().min(1, REQUIRED),
    message: z.string({ error: 'Not a valid string.' }).trim().min(1, 'This field may not be blank.').optional(),
  },
  { error: 'Expected a JSON object.' },
);
export type MarkReadDto = z.output<typeof markReadSchema>;
