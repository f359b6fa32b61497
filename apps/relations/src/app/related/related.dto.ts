// The answers of joinable-with and top-related (spec section 7, Relations), as zod schemas.
import { z } from 'zod';
import { matchingHeaderSchema, score } from '../compare/responses';

export const joinableWithResponseSchema = z.object({
  record: z.string(),
  count: z.number().int(),
  results: z.array(z.object({ id: z.string(), name: z.string(), join_score: score, unionable: z.boolean(), matching_headers: z.array(matchingHeaderSchema) })),
});

export const topRelatedResponseSchema = z.object({
  record: z.string(),
  top_related: z.array(z.object({ id: z.string(), name: z.string(), sem_score: score, struct_score: score, stats_score: score, link_score: score })),
});
