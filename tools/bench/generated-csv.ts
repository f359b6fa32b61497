// The generated CSV the extraction benchmarks profile: numeric and text columns, some missing
// scores, some quoted commas, always the same rows (bench-figures.ts, on the extraction library's seeded generator).
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchRows, csvLine } from './extraction/bench-figures';

/** Where generated files are kept between runs (they take a while to write). */
export const GENERATED_CSV_DIR = path.join(tmpdir(), 'dc-extraction-bench');

/** Writes rows of `id,amount,quantity,score,category,comment,created` until the file holds at least `bytes`. */
export async function generateCsv(file: string, bytes: number): Promise<void> {
  const rows = benchRows(42);
  const out = createWriteStream(file);
  const write = (text: string): Promise<void> => new Promise((resolve) => (out.write(text) ? resolve() : out.once('drain', resolve)));
  await write('id,amount,quantity,score,category,comment,created\n');
  let written = 0;
  while (written < bytes) {
    let batch = '';
    for (let i = 0; i < 2000; i++) batch += csvLine(rows.next().value);
    written += Buffer.byteLength(batch);
    await write(batch);
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** The generated file of about `sizeMb` MB (10^6 bytes) in `dir`, written unless an earlier run left it there. */
export async function generatedCsv(sizeMb: number, dir = GENERATED_CSV_DIR): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${sizeMb}mb.csv`);
  if (!existsSync(file) || statSync(file).size < sizeMb * 1e6) {
    console.log(`generating ${file}`);
    await generateCsv(file, sizeMb * 1e6);
  }
  return file;
}
