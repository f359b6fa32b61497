import { NO_ACCESS } from '../compare/relations.service';
import type { SketchedRecord } from '../records/related-record';
import { NOT_TABULAR } from './merge-scan.service';
import { ESTIMATE_UNKNOWN, ESTIMATE_WITHHELD, joinEstimate, MergePreviewService, overLimitText, PREVIEW_UNKNOWN } from './merge-preview.service';
import { column, mergeFakes, sketchedRecord, user } from './merge.fixture';

const owner = user('owner');
const stranger = user('stranger');
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i + 1);

// 4 stations, each measured 5 times; 3 of them are in the station list, once each.
const rainfall = sketchedRecord({
  name: 'Rainfall',
  owner,
  rows: 20,
  tables: [[column(0, 'station_id', { values: range(0, 4), count: 20 }), column(1, 'mm', { values: range(100, 120) })]],
});
const stations = sketchedRecord({
  name: 'Stations',
  owner,
  rows: 5,
  tables: [[column(0, 'id', { values: [...range(1, 4), 50, 51] }), column(1, 'mm', { type: 'text', values: range(200, 205) })]],
});
/** Everyone sees it; only an approved request lets the owner download it. */
const census = sketchedRecord({
  name: 'Census',
  owner: stranger,
  visibility: 'EV',
  access: 'RE',
  rows: 7,
  tables: [[column(0, 'id', { values: range(0, 7) })]],
});
const secret = sketchedRecord({ name: 'Secret', owner: stranger, tables: [[column(0, 'id')]] });
const survey = sketchedRecord({ name: 'Survey', owner, fileName: 'survey.pdf', contentType: 'application/pdf', tables: [[column(0, 'id')]] });
const masked = sketchedRecord({ name: 'Masked', owner, tables: [[column(0, 'id', { privacy: 'masked', count: 10 })]] });

const pair = (left: SketchedRecord, right: SketchedRecord, header_left: string, header_right: string) => ({
  record_left: left.record.id,
  record_right: right.record.id,
  header_left,
  header_right,
});

describe('MergePreviewService (fake repositories)', () => {
  const { repositories } = mergeFakes(rainfall, stations, census, secret, survey, masked);
  const service = new MergePreviewService(repositories.records, repositories.access);

  it('names a horizontal merge, lists its columns as the merge engine makes them and estimates its rows from the sketches', async () => {
    const answer = await service.preview(owner, [pair(rainfall, stations, 'station_id', 'id')], 'horizontal');
    expect(answer).toEqual({
      previews: [
        {
          record_left: rainfall.record.id,
          record_left_name: 'Rainfall',
          record_right: stations.record.id,
          record_right_name: 'Stations',
          merge_type: 'horizontal',
          name: 'Rainfall joined with Stations on station_id = id',
          columns: ['station_id', 'mm', 'mm (Stations)'],
          columns_complete: true,
          // 3 shared stations × 5 measurements × 1 station row.
          estimated_rows: 15,
          rows_exact: false,
          can_start: true,
          note: null,
        },
      ],
      messages: [],
    });
  });

  it('counts a vertical merge as both tables stacked, keeping only the paired columns', async () => {
    const [preview] = (await service.preview(owner, [pair(rainfall, stations, 'station_id', 'id')], 'vertical')).previews;
    expect(preview).toMatchObject({ name: 'Rainfall stacked with Stations (station_id = id)', columns: ['station_id'], estimated_rows: 25, rows_exact: true });
  });

  it("withholds a join's rows from a caller who may not download both records, and says the merge cannot start; columns are metadata", async () => {
    const [preview] = (await service.preview(owner, [pair(rainfall, census, 'station_id', 'id')], 'horizontal')).previews;
    expect(preview).toMatchObject({ columns: ['station_id', 'mm'], estimated_rows: null, can_start: false, note: ESTIMATE_WITHHELD });
    // A stack's rows are row counts (metadata): shown, but the merge still cannot start.
    const [stacked] = (await service.preview(owner, [pair(rainfall, census, 'station_id', 'id')], 'vertical')).previews;
    expect(stacked).toMatchObject({ estimated_rows: 27, can_start: false, note: NO_ACCESS });
  });

  it('warns when the rows would pass the most a merge may make (MERGE_MAX_ROWS)', async () => {
    const limited = new MergePreviewService(repositories.records, repositories.access, { MERGE_MAX_ROWS: 20 });
    const [joined] = (await limited.preview(owner, [pair(rainfall, stations, 'station_id', 'id')], 'horizontal')).previews;
    expect(joined).toMatchObject({ estimated_rows: 15, note: null });
    const [stacked] = (await limited.preview(owner, [pair(rainfall, stations, 'station_id', 'id')], 'vertical')).previews;
    expect(stacked).toMatchObject({ estimated_rows: 25, can_start: true, note: overLimitText(20, false) });
  });

  it('says nothing of records the caller may not see, and names data that is not tabular', async () => {
    expect(await service.preview(owner, [pair(rainfall, secret, 'station_id', 'id')], 'horizontal')).toEqual({ previews: [], messages: [PREVIEW_UNKNOWN] });
    const [pdf] = (await service.preview(owner, [pair(rainfall, survey, 'station_id', 'id')], 'horizontal')).previews;
    expect(pdf).toMatchObject({ columns: [], can_start: false, note: NOT_TABULAR });
    const [hidden] = (await service.preview(owner, [pair(rainfall, masked, 'station_id', 'id')], 'horizontal')).previews;
    expect(hidden).toMatchObject({ estimated_rows: null, can_start: true, note: ESTIMATE_UNKNOWN });
  });
});

describe('joinEstimate', () => {
  const col = (values: number[], count = values.length) => column(0, 'c', { values, count });
  it('multiplies the pairs’ selectivities and stays under the most selective pair alone', () => {
    // Keys (country, year): 10 countries × 5 years on both sides, one row each: the join is 50 rows.
    const left = { rows: 50, columns: [col(range(0, 10), 50), col(range(100, 105), 50)] };
    const right = { rows: 50, columns: [col(range(0, 10), 50), col(range(100, 105), 50)] };
    expect(joinEstimate(left, right)).toBe(50);
  });
  it('is 0 when a pair shares no value', () => {
    expect(joinEstimate({ rows: 3, columns: [col([1, 2, 3])] }, { rows: 3, columns: [col([4, 5, 6])] })).toBe(0);
  });
});
