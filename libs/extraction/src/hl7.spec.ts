import { readFileSync } from 'node:fs';
import { dataset, extractDataset } from './spec-support.fixture';

const FILES = [
  { file: 'hl7/005_MN_ADT_A01.hl7', segments: 7, type: 'ADT^A01', version: '2.3' },
  { file: 'hl7/001_ADT_A01.hl7', segments: 5, type: 'ADT^A01^ADT_A01', version: '2.8' },
  { file: 'hl7/002_Epic_ORU_R01.hl7', segments: 34, type: 'ORU^R01', version: '2.3' },
  { file: 'hl7/001_Oracle_ORM_O01.hl7', segments: 13, type: 'ORM^O01', version: '2.3' },
  { file: 'hl7/007_CA_ORU_R01_CDPH_initial_message.hl7', segments: 129, type: 'ORU^R01^ORU_R01', version: '2.5.1' },
];

/** Field values per "SEG-n", read directly: split segments on line ends and fields on '|'. */
function referenceFields(file: string): { segments: string[][]; fields: Map<string, string[]> } {
  const segments = readFileSync(dataset(file), 'utf8')
    .split(/\r\n|\r|\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('|'));
  const fields = new Map<string, string[]>();
  for (const parts of segments) {
    const name = parts[0];
    const values = name === 'MSH' ? ['|', ...parts.slice(1)] : parts.slice(1);
    values.forEach((value, i) => {
      const key = `${name}-${i + 1}`;
      if (!fields.has(key)) fields.set(key, []);
      if (value.trim() !== '') fields.get(key)?.push(value);
    });
  }
  return { segments, fields };
}

describe.each(FILES)('HL7 $file', ({ file, segments, type, version }) => {
  it('segments are rows, field positions are headers with their counts', async () => {
    const result = await extractDataset(file);
    const expected = referenceFields(file);
    expect(result.STATUS).toBe('complete');
    expect(result.FILE?.TOTAL_ROWS).toBe(segments);
    expect(expected.segments).toHaveLength(segments);
    expect(result.HL7).toMatchObject({ MESSAGES: 1, VERSION: version, MESSAGE_TYPES: [type] });
    const perSegment: Record<string, number> = {};
    for (const parts of expected.segments) perSegment[parts[0]] = (perSegment[parts[0]] ?? 0) + 1;
    expect(result.HL7?.SEGMENTS).toEqual(perSegment);
    const withValues = [...expected.fields.entries()].filter(([, values]) => values.length > 0).map(([key]) => key);
    expect([...(result.FILE?.HEADERS ?? [])].sort()).toEqual(withValues.sort());
    result.FILE?.HEADERS.forEach((header, i) => {
      const column = result.FILE?.STATS[String(i)];
      const values = expected.fields.get(header) ?? [];
      const empty = values.filter((v) => ['""', 'na', 'null'].includes(v.trim().toLowerCase())).length;
      expect({ header, count: column?.DICT.count }).toEqual({ header, count: values.length - empty });
      expect({ header, rows: (column?.DICT.count ?? 0) + (column?.MISSING_VALS ?? 0) }).toEqual({ header, rows: perSegment[header.slice(0, 3)] });
    });
    expect(result.ERRORS).toEqual([]);
  });
});

it('HL7: PID-5 holds the patient name with its components', async () => {
  const result = await extractDataset('hl7/001_ADT_A01.hl7');
  const index = result.FILE?.HEADERS.indexOf('PID-5') ?? -1;
  expect(index).toBeGreaterThanOrEqual(0);
  expect(result.FILE?.STATS[String(index)].FORMATTED_VALS[0]).toContain('^');
  expect(result.FILE?.HEADERS.slice(0, 2)).toEqual(['MSH-1', 'MSH-2']);
});
