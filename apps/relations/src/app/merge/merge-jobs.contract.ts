// What merge-features, merge-enc-cols and link-records take and answer, with the examples docs/openapi.json shows.
import type { ApiContractSpec } from '@dc/platform';
import { jobsStartedResponseSchema, linkRecordsSchema, mergeFeaturesSchema, mergePreviewResponseSchema, recordPairSchema } from './merge.dto';

const LEFT = '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f';
const RIGHT = '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b';
const started = (type: 'MERGE' | 'LINK', message: string) => ({
  nodata: false,
  nottabular: false,
  nomatches: false,
  newmerges: [
    {
      job_id: '5b0f3c1e-8a4d-4f0e-9c57-2f1d9a6b7e10',
      type,
      record_left_id: LEFT,
      record_left_name: 'Rainfall',
      record_right_id: RIGHT,
      record_right_name: 'Stations',
    },
  ],
  messages: [message],
});

export const MERGE_FEATURES_CONTRACT: ApiContractSpec = {
  summary: 'Merge Horizontal or Merge Vertical: one MERGE job per pair of records, on the chosen field pairs',
  body: mergeFeaturesSchema,
  requestExample: { merge_relations: [{ record_left: LEFT, record_right: RIGHT, header_left: 'station_id', header_right: 'id' }], merge_type: 'horizontal' },
  responses: { 200: jobsStartedResponseSchema },
  example: started('MERGE', 'New merge job was successfully initiated.'),
};

export const MERGE_HASHED_COLUMNS_CONTRACT: ApiContractSpec = {
  summary: 'Merge two records on the hashed columns they share (400 when they share none)',
  body: recordPairSchema,
  requestExample: { record_left: LEFT, record_right: RIGHT, merge_type: 'horizontal' },
  responses: { 200: jobsStartedResponseSchema },
  example: started('MERGE', 'New merge job was successfully initiated.'),
};

export const LINK_RECORDS_CONTRACT: ApiContractSpec = {
  summary: "Link Datasets: a LINK job matching two records' rows on their hashed columns (400 when they share none by name), or on the column pairs given",
  body: linkRecordsSchema,
  requestExample: { record_left: LEFT, record_right: RIGHT, pairs: [{ header_left: 'station_id', header_right: 'id' }] },
  responses: { 200: jobsStartedResponseSchema },
  example: started('LINK', 'New link job was successfully initiated.'),
};

export const MERGE_PREVIEW_CONTRACT: ApiContractSpec = {
  summary: "What Merge Horizontal or Merge Vertical would make of the chosen field pairs (the new record's name, its columns, its rows), without starting it",
  body: mergeFeaturesSchema,
  requestExample: { merge_relations: [{ record_left: LEFT, record_right: RIGHT, header_left: 'station_id', header_right: 'id' }], merge_type: 'horizontal' },
  responses: { 200: mergePreviewResponseSchema },
  example: {
    previews: [
      {
        record_left: LEFT,
        record_left_name: 'Rainfall',
        record_right: RIGHT,
        record_right_name: 'Stations',
        merge_type: 'horizontal',
        name: 'Rainfall joined with Stations on station_id = id',
        columns: ['station_id', 'date', 'rain_mm', 'name', 'latitude', 'longitude'],
        columns_complete: true,
        estimated_rows: 36500,
        rows_exact: false,
        can_start: true,
        note: null,
      },
    ],
    messages: [],
  },
};
