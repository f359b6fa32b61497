// What the workbook readers' specs check (xls-reader.spec.ts, xls-records.spec.ts, xlsx-reader.spec.ts):
// a workbook read by the reader under test and by SheetJS, under each of several extraction variants
// (options, limits, private columns, sketches), gives the same META and the same column sketches.
import type { ExtractorContext } from './context';
import { resolveLimits } from './extract';
import { ColumnPrivacy } from './private-columns';
import { Declined } from './sheet-scan';
import { SketchCollector } from './sketch';
import { streamOf } from './spec-support.fixture';
import { extractSpreadsheet, type WorkbookReader } from './spreadsheet';
import type { ExtractionLimits, ExtractOption, PrivateColumns } from './types';

export interface Variant {
  option: Exclude<ExtractOption, 'minimal'>;
  limits?: Partial<ExtractionLimits>;
  privacy?: PrivateColumns;
  sketches?: boolean;
}

const KEY = new Uint8Array(32).fill(7);
export const VARIANTS: Variant[] = [
  { option: 'metadata' },
  { option: 'samples', sketches: true },
  { option: 'metadata', limits: { maxRowsScanned: 3 } },
  { option: 'samples', limits: { maxRowsScanned: 40, maxColumns: 3, maxCellChars: 6, maxDistinctTracked: 10 }, sketches: true },
  {
    option: 'samples',
    privacy: {
      hash: [0],
      formats: [
        { column: 1, format: 'mask' },
        { column: 2, format: 'exclude' },
      ],
      linkageKey: KEY,
    },
    sketches: true,
  },
];

/** The checks for the reader of one kind of workbook. */
export function workbookChecks(kind: 'xls' | 'xlsx') {
  const own: WorkbookReader = kind === 'xls' ? 'xls-reader' : 'xlsx-reader';

  /** META and sketches as `reader` gives them (SheetJS's errors as text; the reader under test throws). */
  async function read(bytes: Buffer, reader: WorkbookReader, variant: Variant): Promise<unknown> {
    const observers = variant.sketches ? new SketchCollector() : undefined;
    const ctx: ExtractorContext = {
      option: variant.option,
      limits: resolveLimits(variant.limits),
      fileName: `book.${kind}`,
      allowArchives: true,
      privacy: variant.privacy ? new ColumnPrivacy(variant.privacy) : undefined,
      observers,
    };
    try {
      const meta = await extractSpreadsheet(streamOf(bytes, 7919), ctx, kind, reader);
      return { meta, sketches: observers?.tables };
    } catch (error) {
      if (reader === own) throw error;
      return { error: `${(error as Error).name}: ${(error as Error).message}` };
    }
  }

  /** Both readers, every variant: the same META; the reader under test must not have declined. */
  async function expectSameAsSheetjs(bytes: Buffer): Promise<void> {
    for (const variant of VARIANTS) {
      const result = await read(bytes, own, variant);
      expect({ variant, result }).toEqual({ variant, result: await read(bytes, 'sheetjs', variant) });
    }
  }

  /** A form the reader declines: SheetJS reads it, so 'auto' gives what SheetJS gives. */
  async function expectDeclinedAndSameAsSheetjs(bytes: Buffer): Promise<void> {
    await expect(read(bytes, own, VARIANTS[0])).rejects.toBeInstanceOf(Declined);
    for (const variant of VARIANTS) expect(await read(bytes, 'auto', variant)).toEqual(await read(bytes, 'sheetjs', variant));
  }

  return { read, expectSameAsSheetjs, expectDeclinedAndSameAsSheetjs };
}
