// What joinable-with and top-related take and answer, with the examples docs/openapi.json shows.
import type { ApiContractSpec } from '@dc/platform';
import { recordSchema } from '../compare/dto';
import { BRIEF, MATCHING_HEADER } from '../compare/relations.contract';
import { joinableWithResponseSchema, topRelatedResponseSchema } from './related.dto';

const RECORD = BRIEF.record1.id;
const STATIONS = { id: BRIEF.record2.id, name: BRIEF.record2.name };

export const JOINABLE_WITH_CONTRACT: ApiContractSpec = {
  summary: 'Records the caller may see that join with this one on some column whose values they may read, best first (at most 10)',
  query: recordSchema,
  responses: { 200: joinableWithResponseSchema },
  example: {
    record: RECORD,
    count: 1,
    results: [
      {
        ...STATIONS,
        join_score: 0.83,
        unionable: false,
        matching_headers: [MATCHING_HEADER],
      },
    ],
  },
};

export const TOP_RELATED_CONTRACT: ApiContractSpec = {
  summary: "The record's top_related, scored in the background, that the caller may see",
  query: recordSchema,
  responses: { 200: topRelatedResponseSchema },
  example: {
    record: RECORD,
    top_related: [{ ...STATIONS, sem_score: 0.62, struct_score: 0.5, stats_score: 0.8, link_score: 0.83 }],
  },
};
