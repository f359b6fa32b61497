// Benchmark of CSV metadata extraction against DuckDB on the same generated files.
// Each measurement runs in its own child process so that its peak RSS (getrusage maxrss) is its own.
// Workbooks and real CSV dialects: sheets.bench-part.ts.
// The CSV part measures the built library (dist/, as the product runs it: its worker threads load
// compiled JavaScript, not the TypeScript sources), rebuilt first unless --no-build.
// Run: node_modules/.bin/node tools/bench/extraction/run.cjs [--sizes=10,100,1000] [--dir=DIR] [--no-write]
//   [--parts=csv,sheets] [--write=csv,sheets] [--repetitions=7] [--rounds=3] [--no-build]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sectionMarkers, writeBenchmarkSection } from '../bench-support';
import { GENERATED_CSV_DIR, generatedCsv } from '../generated-csv';
import { childAnswer, type ColumnFigures, NUMERIC, worstDifference } from './bench-figures';
import { isSheetsChild, runSheetsChild, runSheetsPart, SHEETS_SECTION } from './sheets.bench-part';

const ROOT = path.resolve(__dirname, '../../..');
const SECTION = 'bench:extraction';
const { start: START, end: END } = sectionMarkers(SECTION);
const MB = 1024 * 1024;

interface Measurement {
  ms: number;
  /** User + system CPU time of the call (the machine is shared, so wall time is noisy). */
  cpuMs: number;
  rssBeforeMb: number;
  peakRssMb: number;
  rows: number;
  columns: Record<string, ColumnFigures>;
  /** extractMetadata only: how late the event loop's timers ran during the call (p99 and max, ms). */
  loopDelay?: { p99: number; max: number };
  /** extractMetadata only: SHA-256 of META without its DATE, to show what threads change. */
  metaDigest?: string;
  /** extractMetadata only: the same with MEAN and STD to 12 significant digits (blocks combine those). */
  roundedDigest?: string;
}

function arg(name: string): string | undefined {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB
}

// ---------------------------------------------------------------------------------------------
// Children: one measurement each, printed as JSON on stdout.

/** The extraction library as the product runs it (built by the parent: npm run build's output). */
function builtExtraction(): typeof import('@dc/extraction') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(ROOT, 'dist/libs/extraction/src/index.js'));
}

async function childExtract(file: string, workers: number): Promise<Measurement> {
  const { extractMetadata } = builtExtraction();
  const rssBeforeMb = process.memoryUsage().rss / MB;
  const cpu = process.cpuUsage();
  // What a server sharing the thread would see: the delay of its timers while the file is profiled.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const result = await extractMetadata(
    { stream: createReadStream(file, { highWaterMark: 256 * 1024 }), fileName: path.basename(file), size: statSync(file).size },
    { extractOption: 'metadata', threads: { workers, minBytes: 0 } },
  );
  const ms = performance.now() - started;
  const cpuMs = cpuMsSince(cpu);
  delay.disable();
  const loopDelay = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
  const table = result.FILE;
  if (!table || result.STATUS !== 'complete') throw new Error(`extraction did not complete: ${result.STATUS} ${result.ERRORS.join('; ')}`);
  const columns: Record<string, ColumnFigures> = {};
  for (const name of NUMERIC) {
    const stats = table.STATS[String(table.HEADERS.indexOf(name))];
    columns[name] = { count: stats.DICT.count, min: stats.MIN ?? NaN, max: stats.MAX ?? NaN, mean: stats.MEAN ?? NaN, std: stats.STD ?? NaN };
  }
  const { DATE: _date, ...meta } = result;
  const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
  const rounded = JSON.stringify(meta, (key, value) => (typeof value === 'number' && (key === 'MEAN' || key === 'STD') ? Number(value.toPrecision(12)) : value));
  return { ms, cpuMs, rssBeforeMb, peakRssMb: peakRssMb(), rows: table.TOTAL_ROWS, columns, loopDelay, metaDigest: digest(JSON.stringify(meta)), roundedDigest: digest(rounded) };
}

type Mode = 'extract' | 'extract-threads' | 'duckdb' | 'summarize' | 'summarize-1';
const EXTRACT_WORKERS: Partial<Record<Mode, number>> = { extract: 1, 'extract-threads': 2 };

/** DuckDB on the same file: one read_csv aggregate query, or SUMMARIZE (default threads, or one). */
async function childDuckdb(file: string, mode: Exclude<Mode, 'extract' | 'extract-threads'>): Promise<Measurement> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const rssBeforeMb = process.memoryUsage().rss / MB;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const instance = await DuckDBInstance.create(':memory:', mode === 'summarize-1' ? { threads: '1' } : {});
  const connection = await instance.connect();
  const source = `read_csv('${file.replace(/'/g, "''")}', header = true)`;
  const columns: Record<string, ColumnFigures> = {};
  let rows: number;
  if (mode === 'duckdb') {
    const select = NUMERIC.map((c) => `count(${c}), min(${c}), max(${c}), avg(${c}), stddev_samp(${c})`).join(', ');
    const row = (await connection.runAndReadAll(`SELECT count(*), ${select} FROM ${source}`)).getRows()[0].map((v) => Number(v));
    rows = row[0];
    NUMERIC.forEach((name, i) => {
      const [count, min, max, mean, std] = row.slice(1 + i * 5, 6 + i * 5);
      columns[name] = { count, min, max, mean, std };
    });
  } else {
    // SUMMARIZE prints its figures as text (shortest round trip), and its count is of all rows.
    const reader = await connection.runAndReadAll(`SUMMARIZE SELECT * FROM ${source}`);
    const names = reader.columnNames();
    const at = (row: unknown[], name: string): number => Number(String(row[names.indexOf(name)]));
    rows = 0;
    for (const row of reader.getRows()) {
      const name = String(row[names.indexOf('column_name')]);
      rows = at(row, 'count');
      if (NUMERIC.includes(name)) {
        // Its null_percentage is rounded to 0.01 %, so no exact count: compared on the other four.
        columns[name] = { count: NaN, min: at(row, 'min'), max: at(row, 'max'), mean: at(row, 'avg'), std: at(row, 'std') };
      }
    }
  }
  const ms = performance.now() - started;
  const cpuMs = cpuMsSince(cpu);
  connection.closeSync();
  instance.closeSync();
  return { ms, cpuMs, rssBeforeMb, peakRssMb: peakRssMb(), rows, columns };
}

function measure(mode: Mode, file: string): Measurement {
  const child = spawnSync(process.execPath, [path.join(__dirname, 'run.cjs'), `--child=${mode}`, `--file=${file}`], { encoding: 'utf8', maxBuffer: 16 * MB });
  if (child.status !== 0) throw new Error(`${mode} child failed: ${child.stderr}`);
  return childAnswer<Measurement>(child.stdout); // SUMMARIZE's missing count comes back as NaN
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
    'and the table shows each engine\'s run of median wall time (every round\'s wall time is listed below it). Time is the',
    'call (`extractMetadata` of the built library in dist/, as the product runs it, with extractOption metadata / a DuckDB instance',
    "and one query), peak RSS is the child's getrusage maxrss (Node and the bench script's swc loader included; \"RSS before\" is",
    'the child just before the work). CPU is user + system',
    "time of the whole process during the call, helper threads included (V8's garbage collector, DuckDB's readers), so it can exceed the wall time.",
    '`extractMetadata` computes every figure of META for all 7 columns (types, distinct counts, duplicates, missing values, first',
    'rows, word sets, keywords); `SUMMARIZE` gives per column min, max, approximate distinct count, mean, std, quartiles, count',
    'and null share. The last column compares the 4 numeric columns\' count, min, max, mean and std with `extractMetadata`\'s',
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
      lines.push(`| ${sizeMb} MB (${bytes} bytes) | ${m.rows} | ${label} | ${fmt(m.ms / 1000, 2)} s (${fmt(m.cpuMs / 1000, 2)} s) | ${mbps} | ${fmt(m.rssBeforeMb, 0)} → ${fmt(m.peakRssMb, 0)} MB | ${diff} |`);
    }
  }
  lines.push(
    '',
    'Wall time of every round, in seconds: ' +
      rows
        .map(({ sizeMb, walls }) => `${sizeMb} MB: ${ENGINES.map(({ mode }) => `${SHORT_NAMES[mode]} ${(walls[mode] ?? []).map((ms) => fmt(ms / 1000, 2)).join(', ')}`).join('; ')}`)
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
  "1 to 7 bytes and generated files past the first 64 KiB with all three readers and compares META and sketches, and",
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
  'depend on the chunks or on the number of threads (csv-threads.spec.ts), and equals one thread\'s but for the last',
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
    const file = arg('file') as string;
    const workers = EXTRACT_WORKERS[child as Mode];
    const result = isSheetsChild(child)
      ? await runSheetsChild(child, file)
      : workers
        ? await childExtract(file, workers)
        : await childDuckdb(file, child as Exclude<Mode, 'extract' | 'extract-threads'>);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  // --parts: which tables to measure; --write: which of their sections to write (a run on small CSV sizes
  // alone would otherwise replace the section holding the 100 MB and 1 GB rows).
  const parts = (arg('parts') ?? 'csv,sheets').split(',');
  const toWrite = process.argv.includes('--no-write') ? [] : (arg('write') ?? parts.join(',')).split(',');
  const sizes = parts.includes('csv') ? (arg('sizes') ?? '10,100,1000').split(',').map(Number) : [];
  const rounds = Number(arg('rounds') ?? 3);
  if (sizes.length > 0 && !process.argv.includes('--no-build')) {
    console.log('building dist/ (the CSV part measures the built library)');
    execFileSync(process.execPath, [path.join(ROOT, 'tools/scripts/build.mjs'), '--server-only'], { cwd: ROOT, stdio: 'inherit' });
  }
  const dir = arg('dir') ?? GENERATED_CSV_DIR;
  mkdirSync(dir, { recursive: true });
  const loadAt = (): string => loadavg().map((x) => x.toFixed(1)).join(', ');
  const loadStart = loadAt();
  const rows: SizeRow[] = [];
  for (const sizeMb of sizes) {
    const file = await generatedCsv(sizeMb, dir);
    const bytes = statSync(file).size;
    // Rounds of every engine in turn, so a change in the machine's load falls on all of them alike.
    const all: Partial<Record<Mode, Measurement[]>> = {};
    for (let round = 0; round < rounds; round++) {
      for (const { mode } of ENGINES) {
        const m = measure(mode, file);
        (all[mode] ??= []).push(m);
        console.log(`${sizeMb} MB ${mode} (round ${round + 1}): ${fmt(m.ms / 1000, 2)} s (CPU ${fmt(m.cpuMs / 1000, 2)} s), peak RSS ${fmt(m.peakRssMb, 0)} MB`);
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
  if (parts.includes('sheets')) {
    const text = await runSheetsPart({ dir, command, loadAt, repetitions: Number(arg('repetitions') ?? 7) });
    console.log(text);
    if (toWrite.includes('sheets')) writeBenchmarkSection(SHEETS_SECTION, text);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
