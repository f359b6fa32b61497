import Papa from 'papaparse';

/** Spec section 9: the preview reads the first 7 lines; delimiters comma, semicolon, tab. */
export const PREVIEW_LINES = 7;
export const PREVIEW_DELIMITERS = [',', ';', '\t'] as const;
export type PreviewDelimiter = (typeof PREVIEW_DELIMITERS)[number];

/** Counts a delimiter per line outside double quotes. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count += 1;
  }
  return count;
}

/**
 * The delimiter whose count per line is the most consistent over the first lines: the one found on
 * the most lines with the line's most common count, ties to the higher count, then to list order.
 */
export function detectDelimiter(text: string): PreviewDelimiter {
  const lines = text
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim() !== '')
    .slice(0, PREVIEW_LINES);
  let best: { delimiter: PreviewDelimiter; agreeing: number; count: number } = { delimiter: ',', agreeing: -1, count: 0 };
  for (const delimiter of PREVIEW_DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    const frequency = new Map<number, number>();
    for (const count of counts) if (count > 0) frequency.set(count, (frequency.get(count) ?? 0) + 1);
    let mode = 0;
    let agreeing = 0;
    for (const [count, times] of frequency) if (times > agreeing || (times === agreeing && count > mode)) [mode, agreeing] = [count, times];
    if (agreeing > best.agreeing || (agreeing === best.agreeing && agreeing > 0 && mode > best.count)) best = { delimiter, agreeing, count: mode };
  }
  return best.delimiter;
}

export interface CsvPreview {
  delimiter: PreviewDelimiter;
  rows: string[][];
}

/** Enough bytes for 7 lines of any sensible CSV without reading a large file whole. */
const PREVIEW_BYTES = 64 * 1024;

export async function previewCsv(file: File): Promise<CsvPreview> {
  const head = await file.slice(0, PREVIEW_BYTES).text();
  // The last line of a cut-off chunk may be partial; drop it unless the file was read whole.
  const complete = file.size <= PREVIEW_BYTES ? head : head.slice(0, Math.max(head.lastIndexOf('\n'), 0));
  const delimiter = detectDelimiter(complete);
  const parsed = Papa.parse<string[]>(complete, { delimiter, preview: PREVIEW_LINES, skipEmptyLines: true });
  return { delimiter, rows: parsed.data };
}

export const isCsv = (file: File) => /\.csv$/i.test(file.name) || file.type === 'text/csv';
