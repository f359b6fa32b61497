// What the relation calls take and answer (spec section 7), with the examples docs/openapi.json shows.
import type { ApiContractSpec } from '@dc/platform';
import { inferHeaderSchema, linkRowsSchema, pairSchema, semanticsSchema } from './dto';
import * as responses from './responses';

/** The two records of the examples (the related calls' examples name them too). */
export const BRIEF = {
  record1: { id: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f', name: 'Rainfall', type: 'text/csv', size: 48213, date_changed: '2026-11-20T09:12:00.000Z' },
  record2: { id: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Stations', type: 'text/csv', size: 5120, date_changed: '2026-11-21T14:03:00.000Z' },
};
const MATCH = { column_left: 'station_id', column_right: 'id', total_matches: 1200, estimated: false };
/** A joinable pair of columns of the two records (joining, joinable-with). */
export const MATCHING_HEADER = {
  header_left: 'station_id',
  header_right: 'id',
  header_similarity: 0.5,
  containment_left: 0.97,
  containment_right: 0.4,
  jaccard: 0.39,
  score: 0.83,
  values_compared: true,
};
const ROW_PAIR = { fieldsA: ['S-104', 'North'], fieldsB: ['S-104', 'Northfield'], rowA: 0, rowB: 17, rows_match_prob: 0.98 };

export const SEMANTICS_CONTRACT: ApiContractSpec = {
  summary: 'Semantic relation: similar words of two records, within the slider range',
  query: semanticsSchema,
  responses: { 200: responses.semanticsResponseSchema },
  example: {
    ...BRIEF,
    sem_score: 0.62,
    sim_words: [{ word_left: 'rainfall', word_right: 'precipitation', score: 0.91 }],
    total_sim_words: 1,
    min: 0,
    max: 1,
  },
};

export const STRUCTURES_CONTRACT: ApiContractSpec = {
  summary: 'Structural relation: columns of the two records sharing data types',
  query: pairSchema,
  responses: { 200: responses.structuresResponseSchema },
  example: { ...BRIEF, struct_score: 0.5, struct_types: [{ type: 'integer', headers_left: ['year'], headers_right: ['opened'] }] },
};

export const STATISTICS_CONTRACT: ApiContractSpec = {
  summary: 'Statistical relation: NRMSD between numeric columns (under 10, closest first)',
  query: pairSchema,
  responses: { 200: responses.statisticsResponseSchema },
  example: { ...BRIEF, stats_score: 0.8, stats_mtx: [{ header_left: 'mm', header_right: 'elevation', nrmsd: 0.25 }], message: null },
};

export const JOINING_CONTRACT: ApiContractSpec = {
  summary: 'Joinability: matching headers and how far their values overlap',
  query: pairSchema,
  responses: { 200: responses.joiningResponseSchema },
  example: {
    ...BRIEF,
    join_score: 0.83,
    joinable: true,
    matching_headers: [MATCHING_HEADER],
    unionable: false,
    union_score: 0.2,
    message: null,
  },
};

export const LINKABILITY_CONTRACT: ApiContractSpec = {
  summary: 'Linkability: matches per column and the first 10 row pairs (estimated from sketches without download rights)',
  query: pairSchema,
  responses: { 200: responses.linkabilityResponseSchema },
  example: { ...BRIEF, link_score: 0.96, tot_rows: { left: 1250, right: 310 }, matches: [MATCH], rows: [ROW_PAIR], estimated: false, message: null },
};

export const LINK_ROWS_CONTRACT: ApiContractSpec = {
  summary: 'The linked row pairs of two records the caller may download (403 otherwise)',
  query: linkRowsSchema,
  responses: { 200: responses.linkRowsResponseSchema },
  example: {
    ...BRIEF,
    link_score: 0.96,
    estimated: false,
    message: null,
    totals: [{ column: 'station_id', total_rows: 1250, total_matches: 1200 }],
    tot_rows: { left: 1250, right: 310 },
    matches: [MATCH],
    results: [ROW_PAIR],
  },
};

export const INFER_HEADER_CONTRACT: ApiContractSpec = {
  summary: 'What a column holds, named from its words (WordNet) or its numbers',
  query: inferHeaderSchema,
  responses: { 200: responses.inferHeaderResponseSchema },
  example: {
    record: BRIEF.record1.id,
    header: 'year',
    type: 'integer',
    privacy: 'plain',
    inferred: 'year',
    candidates: [
      { label: 'year', score: 0.9 },
      { label: 'count', score: 0.3 },
    ],
  },
};
