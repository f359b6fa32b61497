// Benchmark of CSV metadata extraction against DuckDB on the same generated files.
// Each measurement runs in its own child process so that its peak RSS (getrusage maxrss) is its own.
// Workbooks and real CSV dialects: sheets.bench-part.ts.
// The CSV part measures the built library (dist/, as the product runs it: its worker threads load
// compiled JavaScript, not the TypeScript sources), rebuilt first unless --no-build.
// Run: node_modules/.bin/node tools/bench/extraction/run.cjs [--sizes=10,100,1000] [--dir=DIR] [--no-write]
//   [--parts=csv,sheets,upload] [--write=csv,sheets,upload] [--repetitions=7] [--rounds=3] [--no-build]
//   [--upload-sizes=0.1,10,100,1000] [--upload-rate=MB/s (the upload part's client paced as over a network)]
// The upload part (upload.bench-part.ts) measures upload to statistics through the built product's API.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { transformFileSync } from '@swc/core';
import { sectionMarkers, writeBenchmarkSection } from '../bench-support';
import { GENERATED_CSV_DIR, generatedCsv } from '../generated-csv';
import { childAnswer, type ColumnFigures, NUMERIC, worstDifference } from './bench-figures';
import type { Measurement, Mode } from './csv-child';
import type * as SheetsPart from './sheets.bench-part';
import { runUploadPart, uploadSectionName } from './upload.bench-part';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { swcOptions } = require('../../scripts/swc-options.cjs') as { swcOptions: () => import('@swc/core').Options };

/**
 * The workbook part, loaded only where it runs: it uses the library from its TypeScript sources, and a
 * second copy of the library in a CSV child slows the built one there by about 70 % (measured).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sheetsPart = (): typeof SheetsPart => require('./sheets.bench-part');

const ROOT = path.resolve(__dirname, '../../..');
const SECTION = 'bench:extraction';
const { start: START, end: END } = sectionMarkers(SECTION);
const MB = 1024 * 1024;

function arg(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

/** csv-child.ts and the one file it imports, compiled to JavaScript in a directory of their own (see csv-child.ts). */
function compiledChild(): string {
  // Inside the repository (tmp/ is ignored), so that its packages (DuckDB) are found from there.
  mkdirSync(path.join(ROOT, 'tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, 'tmp', 'extraction-child-'));
  for (const name of ['csv-child', 'bench-columns']) {
    const { code } = transformFileSync(path.join(__dirname, `${name}.ts`), { ...swcOptions(), sourceMaps: false, swcrc: false });
    writeFileSync(path.join(dir, `${name}.js`), code);
  }
  return path.join(dir, 'csv-child.js');
}

let child: string | undefined;

const execFileAsync = promisify(execFile);

function removeCompiledChild(): void {
  if (child) rmSync(path.dirname(child), { recursive: true, force: true });
  child = undefined;
}

/** One measurement in a fresh child; this process's event loop turns meanwhile (the upload part's product connection stays served). */
async function measure(mode: Mode, file: string): Promise<Measurement> {
  child ??= compiledChild();
  const run = await execFileAsync(process.execPath, [child, `--child=${mode}`, `--file=${file}`, `--root=${ROOT}`], {
    encoding: 'utf8',
    maxBuffer: 16 * MB,
  }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`${mode} child failed: ${error.stderr ?? error.message}`);
  });
  return childAnswer<Measurement>(run.stdout); // SUMMARIZE's missing count comes back as NaN
}

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (x: number, digits = 1): string => x.toFixed(digits);
const num = (x: number): string => (Number.isNaN(x) ? '–' : Number.isInteger(x) ? String(x) : x.toPrecision(10));

const ENGINES: Array<{ mode: Mode; label: string }> = [
  { mode: 'extract', label: '`extractMetadata` (full META of all 7 columns), one thread (`threads: { workers: 1 }`)' },
  { mode: 'extract-threads', label: '`extractMetadata`, 2 worker threads (`threads: { workers: 2, minBytes: 0 }`)' },
  { mode: 'summarize', label: 'DuckDB `SUMMARIZE` (default threads)' },
  { mode: 'summarize-1', label: 'DuckDB `SUMMARIZE` (threads = 1)' },
  { mode: 'duckdb', label: 'DuckDB `read_csv` aggregate (count, min, max, avg, stddev_samp of the 4 numeric columns)' },
];

const SHORT_NAMES: Record<Mode, string> = {
  extract: 'one thread',
  'extract-threads': 'two threads',
  'extract-product': 'as the product',
  summarize: 'SUMMARIZE',
  'summarize-1': 'SUMMARIZE (1 thread)',
  duckdb: 'DuckDB aggregate',
};

interface SizeRow {
  sizeMb: number;
  bytes: number;
  /** Each engine's run of median wall time. */
  runs: Partial<Record<Mode, Measurement>>;
  /** Each engine's wall times, round by round (ms). */
  walls: Partial<Record<Mode, number[]>>;
}

function medianByWall(measurements: Measurement[]): Measurement {
  return [...measurements].sort((a, b) => a.ms - b.ms)[Math.floor((measurements.length - 1) / 2)];
}

function delays(runs: SizeRow['runs'], key: 'p99' | 'max'): string {
  return (['extract', 'extract-threads'] as const).map((mode) => fmt(runs[mode]?.loopDelay?.[key] ?? NaN)).join(' / ');
}

function section(rows: SizeRow[], command: string, load: string, rounds: number): string {
  const duckVersion = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@duckdb/node-api/package.json'), 'utf8')).version as string;
  const lines = [
    START,
    '## Metadata extraction: streaming CSV statistics vs DuckDB',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on this project's machine (${cpus().length} cores, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, DuckDB \`@duckdb/node-api\` ${duckVersion}).`,
    `Command: \`${command}\``,
    `Load average (1, 5, 15 min) at the start and end of the run: ${load}. The machine is shared with other jobs, so wall times`,
    'are noisy; CPU times are closer to the cost of the work itself.',
    '',
    'Generated CSVs (`id,amount,quantity,score,category,comment,created`: 4 numeric columns, 2 % of `score` empty, 5 % of comments',
    `quoted with a comma, a text and a date column). Each measurement is a child process of its own; the engines run in turn, ${rounds} rounds,`,
    "and the table shows each engine's run of median wall time (every round's wall time is listed below it). Time is the",
    'call (`extractMetadata` of the built library in dist/, as the product runs it, with extractOption metadata / a DuckDB instance',
    "and one query) in a child running on plain Node (no TypeScript compiler loaded, as in the product); peak RSS is the child's",
    'getrusage maxrss ("RSS before" is the child just before the work). CPU is user + system',
    "time of the whole process during the call, helper threads included (V8's garbage collector, DuckDB's readers), so it can exceed the wall time.",
    '`extractMetadata` computes every figure of META for all 7 columns (types, distinct counts, duplicates, missing values, first',
    'rows, word sets, keywords); `SUMMARIZE` gives per column min, max, approximate distinct count, mean, std, quartiles, count',
    "and null share. The last column compares the 4 numeric columns' count, min, max, mean and std with `extractMetadata`'s",
    "(SUMMARIZE's count is left out: it counts all rows and rounds its null share).",
    '',
    '| file | rows | engine | wall (CPU) | MB/s wall (per CPU s) | RSS before → peak | largest relative difference to extractMetadata |',
    '|---|---:|---|---:|---:|---:|---:|',
  ];
  for (const { sizeMb, bytes, runs } of rows) {
    const ours = runs.extract as Measurement;
    for (const { mode, label } of ENGINES) {
      const m = runs[mode];
      if (!m) continue;
      const mbps = `${fmt(bytes / MB / (m.ms / 1000))} (${fmt(bytes / MB / (m.cpuMs / 1000))})`;
      const diff =
        mode === 'extract'
          ? ''
          : mode === 'extract-threads'
            ? m.metaDigest === ours.metaDigest
              ? 'none: the same META, byte for byte'
              : m.roundedDigest === ours.roundedDigest
                ? `the same META but for MEAN and STD, ${worstDifference(ours.columns, m.columns, NUMERIC).toExponential(1)} apart`
                : '**META differs**'
            : worstDifference(ours.columns, m.columns, NUMERIC).toExponential(1);
      lines.push(
        `| ${sizeMb} MB (${bytes} bytes) | ${m.rows} | ${label} | ${fmt(m.ms / 1000, 2)} s (${fmt(m.cpuMs / 1000, 2)} s) | ${mbps} | ${fmt(m.rssBeforeMb, 0)} → ${fmt(m.peakRssMb, 0)} MB | ${diff} |`,
      );
    }
  }
  lines.push(
    '',
    'Wall time of every round, in seconds: ' +
      rows
        .map(
          ({ sizeMb, walls }) =>
            `${sizeMb} MB: ${ENGINES.map(({ mode }) => `${SHORT_NAMES[mode]} ${(walls[mode] ?? []).map((ms) => fmt(ms / 1000, 2)).join(', ')}`).join('; ')}`,
        )
        .join('. ') +
      '.',
  );
  lines.push(
    '',
    'Event loop during `extractMetadata` (how late a 5 ms timer of a server in the same thread would run), one thread / 2 worker threads: ' +
      rows.map(({ sizeMb, runs }) => `${sizeMb} MB: p99 ${delays(runs, 'p99')} ms, max ${delays(runs, 'max')} ms`).join('; ') +
      '. CSV reading now yields to the event loop after 10 ms (wall) of work; before, no other callback ran until the file was done' +
      ' (event-loop.spec.ts). These delays include the time the OS gave other jobs at the load above, so they are an upper bound.',
  );
  lines.push('', NOTES, '', 'The statistics side by side (extractMetadata / DuckDB aggregate / DuckDB SUMMARIZE):', '');
  lines.push('| file | column | count | min | max | mean | std |', '|---|---|---|---|---|---|---|');
  for (const { sizeMb, runs } of rows) {
    for (const name of NUMERIC) {
      const all = (['extract', 'duckdb', 'summarize'] as const).map((mode) => runs[mode]?.columns[name]).filter((c): c is ColumnFigures => c !== undefined);
      const cell = (key: keyof ColumnFigures): string => all.map((c) => num(c[key])).join(' / ');
      lines.push(`| ${sizeMb} MB | ${name} | ${cell('count')} | ${cell('min')} | ${cell('max')} | ${cell('mean')} | ${cell('std')} |`);
    }
  }
  lines.push(END);
  return lines.join('\n');
}

/** Written by hand: what the figures above come from (kept in the generated section). */
const NOTES = [
  'Peak RSS stays flat with the file size: extraction holds bounded distinct-value sets (exact up to `maxDistinctTracked`,',
  'then HyperLogLog), top-k word counters and a few first rows per column, one unfinished record, and with threads a few',
  'blocks of records in flight (4 MiB each, two per thread), never the file.',
  '',
  'How one thread got there (issue 13; CPU profiles with `node --cpu-prof` on the 100 MB file). Before the issue a quarter',
  "of the time went to the garbage collector (papaparse's per-row arrays and strings), a sixth to word counting, the rest",
  'to typing, hashing and decoding. A one-pass reader of decoded text (csv-records.ts) then halved that. Now a CSV is',
  'read from its bytes (libs/extraction/src/csv-bytes.ts): records and cells are found in the bytes, and an ASCII cell of a',
  'plain column is trimmed, typed and parsed (ascii-cells.ts: the digits are added up as they are read, and with at most',
  '15 significant digits and a power of ten up to 22 one division or multiplication gives exactly what Number() gives;',
  'anything else goes to Number()), hashed for its distinct count and sketch, and its words counted (WordCounts, keyed',
  'by a hash computed as the word is scanned), all without becoming a string; only the first rows, the first non-number,',
  'a sample and new words are ever made into strings. Text is never decoded as a whole: a non-ASCII cell is decoded on',
  'its own (UTF-8, or Windows-1252 from the first byte that is not UTF-8, as before). Whatever the byte reader would not',
  'read exactly as papaparse does (a quote inside a field, mixed line ends, UTF-16) is read from that record on as text,',
  'the way it always was. The answers are unchanged: csv-records.spec.ts reads every shared CSV, tricky texts in chunks of',
  '1 to 7 bytes and generated files past the first 64 KiB with all three readers and compares META and sketches, and',
  'ascii-cells.spec.ts compares the byte typing with the text typing on 200,000 generated cells, to the bit. On the quiet',
  'machine, one thread went from 4.3 s to about 1.2 s of CPU on the 100 MB file, and reads 1000 MB in about 10.5 s.',
  '',
  'Threads (libs/extraction/src/csv-threads.ts, csv-blocks.ts): a CSV of 32 MiB or more is described by',
  '`EXTRACTION_THREADS` worker threads (default 2). The calling thread decides the dialect and the header as one thread',
  'does, cuts the rest into blocks of whole records (at the first line end at least 4 MiB on that is not inside quotes,',
  'found by counting quotes with native searches, so the cuts depend on the bytes only) and hands each block, in a buffer',
  'handed over and back without a copy and reused, to the least busy thread, which describes all its columns. The',
  "blocks' figures are merged in file order: counts add up, MEAN and STD combine the blocks' Welford summaries (Chan et",
  'al.), first rows come from the first blocks, word counts are added and pruned as counting prunes them; distinct',
  'values and sketches are counted per thread in ways whose union does not depend on the order. So the META does not',
  "depend on the chunks or on the number of threads (csv-threads.spec.ts), and equals one thread's but for the last",
  'digits of MEAN and STD (column above), and, where they are drawn, the samples of extractOption samples, the words of a',
  'column with more distinct words than are kept, and the numbers a sketch keeps beyond 20,000. A block the byte reader',
  'declines is read as text from its start, as one thread would read it; a record longer than maxLineBytes stops reading',
  'before its block. Before, each of two threads read every record and described half of the columns: the reading was',
  'done twice and a file of few costly columns could not be shared out.',
  'On this machine, fresh memory is slow to touch the first time (about 7 ms per MiB, measured: a new 9 MiB buffer filled',
  'took 60 ms, a reused one under 1 ms), so buffers are reused: the block buffers, the records of a block, the buffer a',
  'carried record is joined in.',
  'In the product, `EXTRACTION_THREADS` sets the threads, and the catalogue profiles any file of 8 MiB or more in a worker',
  'thread of its own (section "Profiling a large file while the API answers"), which keeps its event loop free.',
].join('\n');

async function main(): Promise<void> {
  const child = arg('child');
  if (child) {
    // Workbook children (the CSV part's have a script of their own, csv-child.ts).
    const result = await sheetsPart().runSheetsChild(child as Parameters<typeof SheetsPart.runSheetsChild>[0], arg('file') as string);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  // --parts: which tables to measure; --write: which of their sections to write (a run on small CSV sizes
  // alone would otherwise replace the section holding the 100 MB and 1 GB rows).
  const parts = (arg('parts') ?? 'csv,sheets,upload').split(',');
  const toWrite = process.argv.includes('--no-write') ? [] : (arg('write') ?? parts.join(',')).split(',');
  const sizes = parts.includes('csv') ? (arg('sizes') ?? '10,100,1000').split(',').map(Number) : [];
  const rounds = Number(arg('rounds') ?? 3);
  if ((sizes.length > 0 || parts.includes('upload')) && !process.argv.includes('--no-build')) {
    console.log('building dist/ (the CSV and upload parts measure the built library and product)');
    execFileSync(process.execPath, [path.join(ROOT, 'tools/scripts/build.mjs'), '--server-only'], { cwd: ROOT, stdio: 'inherit' });
  }
  const dir = arg('dir') ?? GENERATED_CSV_DIR;
  mkdirSync(dir, { recursive: true });
  const loadAt = (): string =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(', ');
  const loadStart = loadAt();
  const rows: SizeRow[] = [];
  for (const sizeMb of sizes) {
    const file = await generatedCsv(sizeMb, dir);
    const bytes = statSync(file).size;
    // Rounds of every engine in turn, so a change in the machine's load falls on all of them alike.
    const all: Partial<Record<Mode, Measurement[]>> = {};
    for (let round = 0; round < rounds; round++) {
      for (const { mode } of ENGINES) {
        const m = await measure(mode, file);
        (all[mode] ??= []).push(m);
        console.log(
          `${sizeMb} MB ${mode} (round ${round + 1}): ${fmt(m.ms / 1000, 2)} s (CPU ${fmt(m.cpuMs / 1000, 2)} s), peak RSS ${fmt(m.peakRssMb, 0)} MB`,
        );
      }
    }
    const runs: SizeRow['runs'] = {};
    for (const { mode } of ENGINES) runs[mode] = medianByWall(all[mode] as Measurement[]);
    rows.push({ sizeMb, bytes, runs, walls: Object.fromEntries(ENGINES.map(({ mode }) => [mode, (all[mode] as Measurement[]).map((m) => m.ms)])) });
  }
  const command = `node_modules/.bin/node tools/bench/extraction/run.cjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
  if (rows.length > 0) {
    const text = section(rows, command, `${loadStart} / ${loadAt()}`, rounds);
    console.log(text);
    if (toWrite.includes('csv')) writeBenchmarkSection(SECTION, text);
  }
  if (parts.includes('upload')) {
    const uploadSizes = (arg('upload-sizes') ?? '0.1,10,100,1000').split(',').map(Number);
    const rateMBps = arg('upload-rate') ? Number(arg('upload-rate')) : undefined;
    const text = await runUploadPart({ dir, sizes: uploadSizes, rounds, command, loadAt, measure, rateMBps });
    console.log(text);
    if (toWrite.includes('upload')) writeBenchmarkSection(uploadSectionName(rateMBps), text);
  }
  removeCompiledChild();
  if (parts.includes('sheets')) {
    const { runSheetsPart, SHEETS_SECTION } = sheetsPart();
    const text = await runSheetsPart({ dir, command, loadAt, repetitions: Number(arg('repetitions') ?? 7) });
    console.log(text);
    if (toWrite.includes('sheets')) writeBenchmarkSection(SHEETS_SECTION, text);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
