// Which thread describes which column (csv-threads.ts). Every thread works it out alike from the
// same first records, so they agree without talking. Columns differ much in cost (a text column's
// words and hashes cost several times a number's), so columns are weighed on the first records and
// dealt out heaviest first, each to the thread with the least weight so far.
import { classify, isMissingText } from './column';

/** Records weighed; they are at the start of the file, read before any row is described. */
export const WEIGHED_RECORDS = 200;

// What a cell costs, in nanoseconds on the byte reader, fitted to each column's cost measured on the
// benchmark's CSV (50 ns for a 3-digit integer, 57 ns for a 7-character decimal, 72 ns for a date,
// 106 ns for a one-word category, 265 ns for a 40-character text of 6 words); only ratios matter.
const MISSING_CELL = 15;
const NUMBER_CELL = 40;
const OTHER_CELL = 45;
const TEXT_CELL = 70;
const PER_CHARACTER = 3;
const PER_TEXT_CHARACTER = 4.5;
const PER_WORD = 5;

/** A rough cost of describing each column, from sample records (the header left out). */
export function columnWeights(records: string[][], width: number): number[] {
  const weights = new Array<number>(width).fill(0);
  for (const cells of records) {
    for (let i = 0; i < width; i++) {
      const text = (cells[i] ?? '').trim();
      if (isMissingText(text)) weights[i] += MISSING_CELL;
      else {
        const { kind } = classify(text, false);
        // Texts are hashed and their words counted, so they cost by length and by word.
        if (kind === 'text') weights[i] += TEXT_CELL + PER_TEXT_CHARACTER * text.length + PER_WORD * text.split(/\s+/).length;
        else weights[i] += (kind === 'integer' || kind === 'float' ? NUMBER_CELL : OTHER_CELL) + PER_CHARACTER * text.length;
      }
    }
  }
  return weights;
}

/** The thread of each column: heaviest first, to the lightest thread so far (ties: lower column, lower thread). */
export function shareColumns(weights: number[], threads: number): number[] {
  const owner = new Array<number>(weights.length).fill(0);
  const load = new Array<number>(threads).fill(0);
  const order = weights.map((weight, index) => ({ weight, index })).sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { weight, index } of order) {
    let lightest = 0;
    for (let t = 1; t < threads; t++) if (load[t] < load[lightest]) lightest = t;
    owner[index] = lightest;
    load[lightest] += weight + MISSING_CELL; // every column costs something, even an empty one
  }
  return owner;
}
