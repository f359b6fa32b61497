// What get-merge-relations takes and answers, with the examples docs/openapi.json shows.
import type { ApiContractSpec } from '@dc/platform';
import { mergeScanResponseSchema, mergeScanSchema } from './merge.dto';

const RAINFALL = { id: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f', name: 'Rainfall' };
const STATIONS = { id: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Stations' };
/** A candidate's id names both columns: record, file, table and column index of each side. */
const CANDIDATE_ID = `${RAINFALL.id}:4e2a9b7c-1d3e-4f5a-8b6c-7d8e9f0a1b2c:0:2|${STATIONS.id}:7b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e:0:0`;

export const MERGE_SCAN_CONTRACT: ApiContractSpec = {
  summary: 'Merge Scan Results: candidate field pairs across the records, and the Linking Columns table',
  body: mergeScanSchema,
  requestExample: { records: [RAINFALL.id, STATIONS.id] },
  responses: { 200: mergeScanResponseSchema },
  example: {
    records: [RAINFALL, STATIONS],
    merge_relations: [
      {
        id: CANDIDATE_ID,
        record_left: RAINFALL.id,
        record_left_name: RAINFALL.name,
        record_right: STATIONS.id,
        record_right_name: STATIONS.name,
        header_left: 'station_id',
        header_right: 'id',
        total_sim: 0.81,
      },
    ],
    linking_columns: [],
    messages: [],
  },
};
