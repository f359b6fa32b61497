import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extractMetadata } from './extract';
import {
  isIdentifyingHeader,
  MIN_VALUES_FOR_STATISTICS,
  NEAR_UNIQUE_SHARE,
  publishableStatistics,
  withoutIdentifyingStatistics,
} from './identifying-statistics';
import { DATASETS, streamOf } from './spec-support.fixture';
import type { ExtractionResult, FileTable } from './types';

const describe_ = (relative: string, extractOption: 'metadata' | 'samples' = 'metadata') =>
  extractMetadata({ stream: streamOf(readFileSync(path.join(DATASETS, relative))), fileName: path.basename(relative) }, { extractOption });
const describeText = (fileName: string, text: string) => extractMetadata({ stream: streamOf(Buffer.from(text)), fileName }, { extractOption: 'metadata' });

function tablesOf(meta: ExtractionResult): FileTable[] {
  return [...(meta.FILE ? [meta.FILE] : []), ...(meta.SHEETS ?? []), ...(meta.MEMBERS ?? []).flatMap(tablesOf)];
}
const column = (meta: ExtractionResult, header: string) => {
  const table = tablesOf(meta).find((t) => t.HEADERS.includes(header))!;
  return table.STATS[String(table.HEADERS.indexOf(header))];
};

describe('statistics withheld before access (docs/metadata-before-access.md, "Statistics")', () => {
  it("withholds an HL7 patient's date of birth, SSN and message id, shown as MIN = MAX = MEAN of one value", async () => {
    const meta = await describe_('hl7/001_ADT_A01.hl7');
    expect(column(meta, 'PID-7')).toMatchObject({ MIN: 19610615173619, MAX: 19610615173619 });
    const shown = withoutIdentifyingStatistics(meta);
    for (const header of ['PID-7', 'PID-19', 'MSH-7', 'EVN-2', 'MSH-12'])
      expect(column(shown, header)).toMatchObject({ MIN: null, MAX: null, MEAN: null, STD: null });
    const text = JSON.stringify(shown);
    for (const value of ['19610615173619', '444333333', '198808181126']) expect(text).not.toContain(value);
    // The rest of META is untouched: counts and types stay.
    expect(column(shown, 'PID-7').DICT).toEqual(column(meta, 'PID-7').DICT);
  });

  it('withholds the extremes of a near-unique CSV column (ssn) and keeps its mean and spread', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => `${123450000 + i * 13},${i % 3},${20 + (i % 5)}.5`);
    const meta = await describeText('people.csv', `ssn,group,reading\n${rows.join('\n')}\n`);
    const shown = withoutIdentifyingStatistics(meta);
    expect(column(shown, 'ssn')).toMatchObject({ MIN: null, MAX: null, MEAN: column(meta, 'ssn').MEAN, STD: column(meta, 'ssn').STD });
    expect(JSON.stringify(shown)).not.toContain('123450000');
    // A column of many people's few values is a published table: all four stay.
    expect(column(shown, 'group')).toMatchObject({ MIN: 0, MAX: 2 });
    expect(column(shown, 'reading')).toMatchObject({ MIN: 20.5, MAX: 24.5 });
  });

  it('withholds the extremes of a date of birth by its header, however many people share the dates', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `${19600101 + (i % 4)},${i % 7}`);
    const meta = await describeText('births.csv', `dateOfBirth,visits\n${rows.join('\n')}\n`);
    const shown = withoutIdentifyingStatistics(meta);
    expect(column(shown, 'dateOfBirth')).toMatchObject({ MIN: null, MAX: null });
    expect(column(shown, 'visits')).toMatchObject({ MIN: 0, MAX: 6 });
  });

  it("withholds the extremes of a measurement series whose every reading differs, and keeps a repeating column's", async () => {
    const meta = await describe_('csv/co2-annmean-mlo.csv');
    const shown = withoutIdentifyingStatistics(meta);
    // Mean holds 67 distinct readings of 67 years: near-unique, so its extremes go; Uncertainty repeats.
    expect(column(shown, 'Mean')).toMatchObject({ MIN: null, MAX: null, MEAN: column(meta, 'Mean').MEAN });
    expect(column(shown, 'Uncertainty')).toEqual(column(meta, 'Uncertainty'));
  });

  it('leaves the statistics of META with real row samples, chosen by the owner, as they are; only its most frequent values are thinned', async () => {
    const meta = await describe_('hl7/001_ADT_A01.hl7', 'samples');
    const withoutTop = (m: typeof meta) => ({
      ...m,
      FILE: { ...m.FILE!, STATS: Object.fromEntries(Object.entries(m.FILE!.STATS).map(([i, { TOP_VALUES: _top, ...stats }]) => [i, stats])) },
    });
    const shown = withoutIdentifyingStatistics(meta);
    expect(withoutTop(shown)).toEqual(withoutTop(meta));
    // One message: no value of it is found in 10 rows.
    expect(Object.values(shown.FILE!.STATS).filter((stats) => stats.TOP_VALUES)).toEqual([]);
  });

  it('never shows a statistic of fewer values than the threshold, nor extremes of near-unique or identifying columns, in any shared dataset', async () => {
    const files = (dir: string): string[] =>
      readdirSync(path.join(DATASETS, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(path.join(dir, e.name)) : e.name.match(/\.(csv|tsv|xlsx?|hl7|zip)$/) ? [path.join(dir, e.name)] : [],
      );
    let checked = 0;
    for (const file of files('')) {
      for (const table of tablesOf(withoutIdentifyingStatistics(await describe_(file)))) {
        table.HEADERS.forEach((header, index) => {
          const stats = table.STATS[String(index)];
          if (!stats) return;
          checked++;
          const { count, distinct } = stats.DICT as { count: number; distinct: number };
          if (count < MIN_VALUES_FOR_STATISTICS)
            expect([file, header, stats.MIN, stats.MAX, stats.MEAN, stats.STD]).toEqual([file, header, null, null, null, null]);
          if (distinct >= NEAR_UNIQUE_SHARE * count || isIdentifyingHeader(header))
            expect([file, header, stats.MIN, stats.MAX]).toEqual([file, header, null, null]);
        });
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('names identifying headers in the forms datasets use', () => {
    for (const header of [
      'SSN',
      'social_security_number',
      'DateOfBirth',
      'date of birth',
      'DOB',
      'birth_date',
      'PID-7',
      'NK1-2',
      'IN1-16',
      'MSH-10',
      'passport_no',
      'phone',
    ])
      expect([header, isIdentifyingHeader(header)]).toEqual([header, true]);
    for (const header of ['Year', 'Mean', 'Country Code', 'PV1-2', 'MSH-7', 'Uncertainty', 'visits', 'business'])
      expect([header, isIdentifyingHeader(header)]).toEqual([header, false]);
    expect(publishableStatistics('age', { count: 9, distinct: 3 })).toBe('none');
    expect(publishableStatistics('age', { count: 100, distinct: 40 })).toBe('all');
    expect(publishableStatistics('id', { count: 100, distinct: 95 })).toBe('spread');
  });
});
