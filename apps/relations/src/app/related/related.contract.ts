// What joinable-with and top-related take and answer, with the examples docs/openapi.json shows.
import type { ApiContractSpec } from '@dc/platform';
import { recordSchema } from '../compare/dto';
import { joinableWithResponseSchema, topRelatedResponseSchema } from './related.dto';

const RECORD = '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f';
const STATIONS = { id: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Stations' };

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
        matching_headers: [
          {
            header_left: 'station_id',
            header_right: 'id',
            header_similarity: 0.5,
            containment_left: 0.97,
            containment_right: 0.4,
            jaccard: 0.39,
            score: 0.83,
            values_compared: true,
          },
        ],
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
