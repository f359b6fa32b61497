// The generated CSV the extraction benchmarks profile: numeric and text columns, some missing
// scores, some quoted commas, always the same rows (the extraction library's seeded generator).
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from './bench-support';

/** Where generated files are kept between runs (they take a while to write). */
export const GENERATED_CSV_DIR = path.join(tmpdir(), 'dc-extraction-bench');

/** Writes rows of `id,amount,quantity,score,category,comment,created` until the file holds at least `bytes`. */
export async function generateCsv(file: string, bytes: number): Promise<void> {
  const random = seededRandom(42);
  const syllables = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'no', 'vi', 'de', 'pa', 'ri', 'go'];
  const vocabulary = Array.from({ length: 400 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  const categories = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau', 'upsilon'];
  const out = createWriteStream(file);
  const write = (text: string): Promise<void> => new Promise((resolve) => (out.write(text) ? resolve() : out.once('drain', resolve)));
  await write('id,amount,quantity,score,category,comment,created\n');
  let written = 0;
  let id = 0;
  const day0 = Date.UTC(2000, 0, 1);
  while (written < bytes) {
    let batch = '';
    for (let i = 0; i < 2000; i++) {
      id++;
      const words = Array.from({ length: 3 + Math.floor(random() * 6) }, () => vocabulary[Math.floor(random() * vocabulary.length)]);
      let comment = words.join(' ');
      if (random() < 0.05) comment = `"${words[0]}, ${words.slice(1).join(' ')}"`;
      const score = random() < 0.02 ? '' : (random() * 100 - 50).toFixed(4);
      const created = new Date(day0 + (id % 9000) * 86400000).toISOString().slice(0, 10);
      batch += `${id},${(random() * 10000).toFixed(2)},${Math.floor(random() * 1000)},${score},${categories[Math.floor(random() * 20)]},${comment},${created}\n`;
    }
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
