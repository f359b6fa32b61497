// The answers of the relation calls (spec section 7, Relations; section 3, Relation scores, Merge
// score, Link match), as zod schemas: the services are typed by them and the OpenAPI document is
// made from them, so the server, the document and the web client's types cannot drift apart.
import { linkMatchSchema } from '@dc/contracts';
import { z } from 'zod';

export const score = z.number().min(0).max(1);
const rowTotals = z.object({ left: z.number().int(), right: z.number().int() }).describe('rows of each record (its first table)');

/** A record compared, as the comparison modal heads it (type, size and changed date). */
export const recordBriefSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number(),
  date_changed: z.string().describe('ISO 8601 date and time'),
});
const compared = { record1: recordBriefSchema, record2: recordBriefSchema };

export const semanticsResponseSchema = z.object({
  ...compared,
  sem_score: score,
  sim_words: z
    .array(z.object({ word_left: z.string(), word_right: z.string(), score }))
    .describe('similar words in the slider range, best first (at most 200)'),
  total_sim_words: z.number().int(),
  min: score,
  max: score,
});

export const structuresResponseSchema = z.object({
  ...compared,
  struct_score: score,
  struct_types: z
    .array(z.object({ type: z.string(), headers_left: z.array(z.string()), headers_right: z.array(z.string()) }))
    .describe('columns of both records grouped by the data type they share'),
});

/** Said when a record's values take no part because the caller may not download it (docs/metadata-before-access.md, "Relations"). */
const valuesMessage = z.string().nullable().describe('why some values were not compared (a record the caller may not download), or null');

export const statisticsResponseSchema = z.object({
  ...compared,
  stats_score: score,
  stats_mtx: z
    .array(z.object({ header_left: z.string(), header_right: z.string(), nrmsd: z.number() }))
    .describe('numeric column pairs with NRMSD under 10, closest first (at most 200)'),
  message: valuesMessage,
});

export const matchingHeaderSchema = z.object({
  header_left: z.string(),
  header_right: z.string(),
  header_similarity: score,
  containment_left: score.describe("share of the left column's distinct values found in the right one"),
  containment_right: score,
  jaccard: score,
  score,
  values_compared: z
    .boolean()
    .describe("the two columns' values were compared; false: by header and type only (masked, or values the caller may not read), the overlap figures are 0"),
});

export const joiningResponseSchema = z.object({
  ...compared,
  join_score: score,
  joinable: z.boolean(),
  matching_headers: z.array(matchingHeaderSchema),
  unionable: z.boolean().describe('every column of the narrower record has a counterpart of the same kind'),
  union_score: score,
  message: valuesMessage,
});

export const columnMatchesSchema = z.object({
  column_left: z.string(),
  column_right: z.string(),
  total_matches: z.number().int().describe('rows (left) whose value occurs in the right column'),
  estimated: z.boolean().describe('estimated from the column sketches (rows not read)'),
});

/** Linkability of two records: matches per column and the first row pairs (spec: Link match). */
export const linkabilitySchema = z.object({
  link_score: score,
  tot_rows: rowTotals,
  matches: z.array(columnMatchesSchema),
  rows: z.array(linkMatchSchema).describe('row pairs, most probable first (rows counted from 0, header excluded)'),
  estimated: z.boolean(),
  message: z.string().nullable(),
});

export const linkabilityResponseSchema = z.object({ ...compared, ...linkabilitySchema.shape });

export const linkRowsResponseSchema = z.object({
  ...compared,
  link_score: score,
  estimated: z.boolean(),
  message: z.string().nullable(),
  totals: z.array(z.object({ column: z.string(), total_rows: z.number().int(), total_matches: z.number().int() })),
  tot_rows: rowTotals,
  matches: z.array(columnMatchesSchema),
  results: z.array(linkMatchSchema),
});

export const inferHeaderResponseSchema = z.object({
  record: z.string(),
  header: z.string(),
  type: z.string(),
  privacy: z.enum(['plain', 'hashed', 'masked']),
  inferred: z.string().describe('the best candidate label'),
  candidates: z.array(z.object({ label: z.string(), score })),
});

/** What a service method answers: the output of its response schema (checked by the compiler). */
export type Answer<T extends z.ZodType> = z.output<T>;
