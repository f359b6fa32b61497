// The bodies and answers of the merge calls: get-merge-relations (the Merge Scan Results),
// merge-features, merge-enc-cols and link-records (spec section 7, Relations), as zod schemas.
import { z } from 'zod';
import { recordId, REQUIRED } from '../compare/dto';
import { linkabilitySchema, score } from '../compare/responses';

export const mergeScanSchema = z.object({
  records: z.array(recordId, { error: 'Expected a list of record ids.' }).min(2, 'Choose at least two records.').max(20, 'Choose at most 20 records.'),
});

const header = z.string({ error: REQUIRED }).min(1, REQUIRED).max(1000);

/** One chosen field pair of the Merge Scan Results (a merge candidate: its other fields are ignored). */
const mergeRelation = z.object({ record_left: recordId, record_right: recordId, header_left: header, header_right: header });

const mergeType = z
  .string({ error: REQUIRED })
  .trim()
  .toLowerCase()
  .transform((value, ctx) => {
    const type = ({ horizontal: 'horizontal', h: 'horizontal', vertical: 'vertical', v: 'vertical' } as const)[value];
    if (!type) {
      ctx.addIssue({ code: 'custom', message: 'Choose horizontal or vertical.' });
      return z.NEVER;
    }
    return type;
  });

/** POST merge-features: the chosen field pairs and Merge Horizontal or Merge Vertical. */
export const mergeFeaturesSchema = z.object({
  merge_relations: z
    .array(mergeRelation, { error: 'Expected a list of merge relations.' })
    .min(1, 'Choose at least one field pair.')
    .max(100, 'Choose at most 100 field pairs.'),
  merge_type: mergeType,
});

/** POST merge-enc-cols (the linking result's merge button) and link-records (Link Datasets): two records. */
export const recordPairSchema = z.object({ record_left: recordId, record_right: recordId, merge_type: mergeType.optional() });

/** POST link-records: two records, and optionally the columns to link them on (when their hashed columns are named differently). */
export const linkRecordsSchema = recordPairSchema.extend({
  pairs: z
    .array(z.object({ header_left: header, header_right: header }), { error: 'Expected a list of column pairs.' })
    .min(1, 'Choose at least one column pair.')
    .max(20, 'Choose at most 20 column pairs.')
    .optional()
    .describe("Columns paired across the records (left record's header, right record's header); without it, the hashed columns both records name alike."),
});

/** A Merge score (spec section 3): a candidate field pair of two records. */
export const mergeCandidateSchema = z.object({
  id: z.string(),
  record_left: z.string(),
  record_left_name: z.string(),
  record_right: z.string(),
  record_right_name: z.string(),
  header_left: z.string(),
  header_right: z.string(),
  total_sim: score,
});

export const mergeScanResponseSchema = z.object({
  records: z.array(z.object({ id: z.string(), name: z.string() })).describe('the records that took part (those the caller may see)'),
  merge_relations: z.array(mergeCandidateSchema),
  linking_columns: z.array(
    z.object({ record_left: z.string(), record_left_name: z.string(), record_right: z.string(), record_right_name: z.string(), ...linkabilitySchema.shape }),
  ),
  messages: z.array(z.string()),
});

/** merge-features, merge-enc-cols and link-records: what could not be merged, and the jobs started. */
export const jobsStartedResponseSchema = z.object({
  nodata: z.boolean().describe('some records take no part: unknown, not visible or not downloadable'),
  nottabular: z.boolean().describe('some records are not stored delimited text'),
  nomatches: z.boolean(),
  newmerges: z.array(
    z.object({
      job_id: z.string(),
      type: z.enum(['MERGE', 'LINK']),
      record_left_id: z.string(),
      record_left_name: z.string(),
      record_right_id: z.string(),
      record_right_name: z.string(),
    }),
  ),
  messages: z.array(z.string()).describe("the spec's texts saying so"),
});

/** POST merge-preview: what Merge Horizontal or Merge Vertical would make of the chosen pairs, without starting it. */
export const mergePreviewResponseSchema = z.object({
  previews: z.array(
    z.object({
      record_left: z.string(),
      record_left_name: z.string(),
      record_right: z.string(),
      record_right_name: z.string(),
      merge_type: z.enum(['horizontal', 'vertical']),
      name: z.string().describe("the new record's name"),
      columns: z.array(z.string()).describe("the result's columns, in order (column names are metadata: shown to whoever sees both records)"),
      columns_complete: z.boolean().describe('false when a side has more columns than its sketches list (100 per file): more follow'),
      estimated_rows: z
        .number()
        .int()
        .nonnegative()
        .nullable()
        .describe(
          "horizontal: the join's rows estimated from the paired columns' value sketches, only when the caller may download both records; vertical: both tables' rows added up (row counts are metadata); null when withheld",
        ),
      rows_exact: z.boolean().describe('the row figure is counted (vertical), not estimated (horizontal)'),
      can_start: z.boolean().describe('the merge can start: the caller may download both records and both are stored delimited text'),
      note: z.string().nullable().describe('why the merge cannot start, or why the row figure is withheld'),
    }),
  ),
  messages: z.array(z.string()),
});
