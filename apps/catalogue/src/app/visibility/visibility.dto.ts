import { z } from 'zod';

export const MAX_SHARED = 500;

/** A list of ids, or of {id, name} pairs as the client shows them (names are looked up, not trusted). */
const sharedIds = (what: string) =>
  z
    .array(z.union([z.string(), z.number(), z.object({ id: z.union([z.string(), z.number()]) }).transform((o) => o.id)]), {
      error: `Expected a list of ${what} ids or {id, name} pairs.`,
    })
    .transform((ids) => [...new Set(ids.map(String))])
    .refine((ids) => ids.length <= MAX_SHARED, `At most ${MAX_SHARED} ${what}s.`);

export const visibilitySchema = z.object(
  {
    visibility_selection: z.enum(['PR', 'EV', 'CU'], { error: 'Select PR, EV or CU.' }),
    organisations_with_visibility: sharedIds('organisation').optional().default([]),
    users_with_visibility: sharedIds('user').optional().default([]),
    associated_record: z.string({ error: 'This field is required.' }).optional(),
  },
  { error: 'Expected a JSON object.' },
);

export type VisibilityDto = z.output<typeof visibilitySchema>;
