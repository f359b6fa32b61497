// One measurement of the extraction benchmark's CSV part, printed as JSON on stdout, in a process of
// its own: extractMetadata of the built library, or DuckDB. extraction.bench.ts compiles this file
// (and bench-columns.ts, all it imports) to JavaScript and runs it with plain Node, so the process
// holds what the product's would: no TypeScript compiler (tens of MB of its peak RSS), and no second
// copy of the library from its sources (which slowed the built one by about 70 %, measured).
// Usage: node <compiled csv-child.js> --child=<mode> --file=<csv> --root=<repository>
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type ColumnFigures, NUMERIC } from './bench-columns';

const MB = 1024 * 1024;

export interface Measurement {
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

/** The extraction library as the product runs it (built by the parent: npm run build's output). */
function builtExtraction(): typeof import('@dc/extraction') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(arg('root') as string, 'dist/libs/extraction/src/index.js'));
}

async function childExtract(file: string, mode: ExtractMode): Promise<Measurement> {
  const { extractMetadata, SketchCollector } = builtExtraction();
  // As the product calls it: its threads from 32 MiB on (the library's default floor), with the column sketches the relations service reads.
  const asProduct = mode === 'extract-product';
  const threads = asProduct ? { workers: 2 } : { workers: mode === 'extract' ? 1 : 2, minBytes: 0 };
  const rssBeforeMb = process.memoryUsage().rss / MB;
  const cpu = process.cpuUsage();
  // What a server sharing the thread would see: the delay of its timers while the file is profiled.
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const result = await extractMetadata(
    { stream: createReadStream(file, { highWaterMark: 256 * 1024 }), fileName: path.basename(file), size: statSync(file).size },
    { extractOption: 'metadata', threads, ...(asProduct && { sketches: new SketchCollector() }) },
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
  const rounded = JSON.stringify(meta, (key, value) =>
    typeof value === 'number' && (key === 'MEAN' || key === 'STD') ? Number(value.toPrecision(12)) : value,
  );
  return {
    ms,
    cpuMs,
    rssBeforeMb,
    peakRssMb: peakRssMb(),
    rows: table.TOTAL_ROWS,
    columns,
    loopDelay,
    metaDigest: digest(JSON.stringify(meta)),
    roundedDigest: digest(rounded),
  };
}

export type Mode = 'extract' | 'extract-threads' | 'extract-product' | 'duckdb' | 'summarize' | 'summarize-1';
type ExtractMode = Extract<Mode, `extract${string}`>;
const isExtract = (mode: Mode): mode is ExtractMode => mode.startsWith('extract');

/** DuckDB on the same file: one read_csv aggregate query, or SUMMARIZE (default threads, or one). */
async function childDuckdb(file: string, mode: Exclude<Mode, ExtractMode>): Promise<Measurement> {
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

async function main(): Promise<void> {
  const mode = arg('child') as Mode;
  const file = arg('file') as string;
  const result = isExtract(mode) ? await childExtract(file, mode) : await childDuckdb(file, mode);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv.some((a) => a.startsWith('--child='))) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
