import { harvestOutcomeSchema, linkMatchSchema } from '@dc/contracts';
import { isoDateTime, pagedSchema } from '@dc/platform';
import { z } from 'zod';

const REQUIRED = 'This field is required.';

/** The spec's `job`: a job id. */
export const jobSchema = z.object({ job: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(100, 'Not a valid job id.') });

const flag = z
  .union([z.boolean(), z.string(), z.number()])
  .optional()
  .transform((value) => value === true || value === 1 || (typeof value === 'string' && ['true', '1', 'yes'].includes(value.trim().toLowerCase())));

/** jobs-list: optional active_flag (only running jobs), page and page_size. */
export const jobsListSchema = z.object({ active_flag: flag, page: z.unknown().optional(), page_size: z.unknown().optional() });

/** A job as the Jobs page reads it (spec section 3, Job); `matches` only in job-content. */
export const jobViewSchema = z.object({
  job_id: z.string(),
  type: z.enum(['MERGE', 'LINK', 'HARVEST']),
  progress: z.object({ current: z.number().int(), total: z.number().int() }),
  info: z.string(),
  is_active: z.boolean(),
  status: z.enum(['active', 'complete']),
  failed: z.boolean().describe('a complete job that produced nothing (info says why)'),
  created: isoDateTime,
  completed: isoDateTime.nullable(),
  content: z.object({
    record_left_name: z.string(),
    record_left_id: z.string(),
    record_left_removed: z.boolean().describe('the record is no longer in the product'),
    record_right_name: z.string(),
    record_right_id: z.string(),
    record_right_removed: z.boolean(),
    result_record_id: z.string().nullable().describe('MERGE: the new record holding the merged file'),
    total_matches: z.number().int(),
    matches: z.array(linkMatchSchema).optional().describe('LINK, job-content only: the matched row pairs, best first'),
    withheld: z
      .string()
      .nullable()
      .describe(
        'LINK: why its row pairs are no longer shown (the access grant a record was read under has ended; matches then empty, total_matches 0), else null',
      ),
    tot_rows: z.object({ left: z.number().int(), right: z.number().int() }).nullable(),
    source: z.string().optional().describe('HARVEST only: the URL or file name of the DCAT catalogue imported'),
    harvest: harvestOutcomeSchema
      .nullable()
      .optional()
      .describe('HARVEST only: datasets created, updated and failed (with reasons) once the import ended, else null'),
  }),
});

/** jobs-list: a page of the caller's jobs, with "No jobs were found." when there are none. */
export const jobsPageSchema = pagedSchema(jobViewSchema).extend({ message: z.string().optional() });

export const jobDeletedSchema = z.object({ detail: z.string() });
