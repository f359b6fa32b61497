import { z } from 'zod';
import { defineEvent } from './registry';

/**
 * The relations service's events. relation.top-related carries a record's best related records as
 * relations scored them from the column sketches, bounded, for the record's top_related (spec
 * section 3). It says nothing of who may see them: whoever shows the list filters it by its own
 * visibility rule for each viewer.
 */
const id = z.string().min(1);
const score = z.number().min(0).max(1);

/** Related records kept and published per record, best first. */
export const TOP_RELATED_KEPT = 20;

export const relatedRecordSchema = z.object({
  recordId: id,
  semScore: score.describe("Semantic relation: WordNet similarity of the two records' headers and word sets."),
  structScore: score.describe('Structural relation: share of columns with a data type in common.'),
  statsScore: score.describe('Statistical relation: 1 / (1 + the smallest NRMSD of two numeric columns).'),
  linkScore: score.describe('How well the records join on some column (value overlap and header similarity).'),
});
export type RelatedRecordPayload = z.output<typeof relatedRecordSchema>;

export const RelationTopRelated = defineEvent(
  'relation.top-related',
  1,
  'The best related records of a record (at most 20, best first), scored again when sketches or headers change',
  z.object({
    recordId: id,
    related: z.array(relatedRecordSchema).max(TOP_RELATED_KEPT),
  }),
);
