import { z } from 'zod';

export const REQUIRED = 'This field is required.';
export const recordId = z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(100, 'Not a valid record id.');

export const RANGE_ERROR = 'Unexpected range setting: Maximum cannot be less than minimum';

const score = (fallback: number) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      const x = Number(value);
      if (!Number.isFinite(x) || x < 0 || x > 1) {
        ctx.addIssue({ code: 'custom', message: 'Expected a number between 0 and 1.' });
        return z.NEVER;
      }
      return x;
    });

/** record1 and record2 of the relation calls (spec section 7). */
export const pairSchema = z.object({ record1: recordId, record2: recordId });

/** The semantic relation's slider (spec: min 0, max 1; max may not be below min). */
export const semanticsSchema = pairSchema.extend({ min: score(0), max: score(1) }).superRefine((value, ctx) => {
  if (value.max < value.min) ctx.addIssue({ code: 'custom', path: ['max'], message: RANGE_ERROR });
});

export const linkRowsSchema = pairSchema.extend({
  limit: z
    .union([z.string(), z.number()])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 100;
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 1000) {
        ctx.addIssue({ code: 'custom', message: 'Expected a whole number between 1 and 1000.' });
        return z.NEVER;
      }
      return n;
    }),
});

export const inferHeaderSchema = z.object({ record: recordId, header: z.string({ error: REQUIRED }).min(1, REQUIRED).max(1000) });

export const recordSchema = z.object({ record: recordId });
