// The extraction benchmark's second section: generated 100,000-row workbooks (.xlsx, .xls) beside a plain
// SheetJS parse of the same file, and the shared real CSVs whose dialect is not plain (Latin-1, semicolons
// with decimal commas, quoted line breaks) beside DuckDB told that dialect. Called by extraction.bench.ts,
// which runs the children (one measurement each, so that peak RSS is the measurement's own).
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import type * as XLSX from '@e965/xlsx';
import { type ColumnStats, extractMetadata, type ExtractionResult } from '@dc/extraction';
import { sectionMarkers } from '../bench-support';
import {
  BENCH_COLUMNS,
  benchRows,
  childAnswer,
  type ColumnFigures,
  median,
  medianBy,
  NUMERIC,
  PlainFigures,
  workbookCells,
  worstDifference,
} from './bench-figures';

export const SHEETS_SECTION = 'bench:extraction-sheets';
const ROOT = path.resolve(__dirname, '../../..');
const MB = 1024 * 1024;
const WORKBOOK_ROWS = 100_000;
/** A BIFF8 (.xls) sheet holds at most 65,536 rows, so the .xls splits the rows over two sheets. */
const XLS_SHEET_ROWS = 50_000;
/** Each workbook is measured this many times per engine, alternating, and the run of median CPU time is shown. */
const WORKBOOK_ROUNDS = 3;

/** What libs/extraction/src/spreadsheet.ts asks SheetJS for (the workbooks its own readers decline); the reference parses the same way. */
const EXTRACTION_READ_OPTIONS: XLSX.ParsingOptions = { type: 'buffer', dense: true, cellDates: true, cellHTML: false, cellFormula: false };

interface RealFile {
  file: string;
  what: string;
  /** read_csv's dialect parameters, given explicitly (header = true is always given). */
  dialect: Record<string, string>;
}

const REAL_FILES: RealFile[] = [
  { file: 'csv/btw25-bw-kreise.csv', what: 'Latin-1 (ISO-8859-1) bytes, 54 sparse columns', dialect: { delim: ',', quote: '"', encoding: 'latin-1' } },
  {
    file: 'csv/AirQualityUCI.csv',
    what: 'semicolons, decimal commas, 114 trailing `;;;…` records',
    dialect: { delim: ';', quote: '"', decimal_separator: ',' },
  },
  { file: 'csv/bank-marketing.csv', what: 'semicolons, every text value quoted', dialect: { delim: ';', quote: '"' } },
  {
    file: 'csv/riddler-castle-solutions.csv',
    what: 'line breaks, commas and doubled quotes inside quoted fields',
    dialect: { delim: ',', quote: '"', escape: '"' },
  },
];

/** Figures by sheet (workbooks) or by file (CSVs), then by column. */
type Figures = Record<string, Record<string, ColumnFigures>>;

interface Run {
  /** Workbooks: the one call; real files: the median of the repetitions. */
  ms: number;
  cpuMs: number;
  repetitions: number;
  rssBeforeMb: number;
  peakRssMb: number;
  rows: number;
  figures: Figures;
  /** Real files, DuckDB: columns its sniffer typed VARCHAR that were read with TRY_CAST(… AS DOUBLE). */
  castColumns?: string[];
  /** Real files, extractMetadata: numeric columns with some text cells (counted in DICT.count, not in the figures). */
  mixedColumns?: Array<{ column: string; cells: number; numbers: number }>;
}

type ChildMode = 'workbook-write' | 'workbook-extract' | 'workbook-sheetjs' | 'file-extract' | 'file-duckdb';
const CHILD_MODES: ChildMode[] = ['workbook-write', 'workbook-extract', 'workbook-sheetjs', 'file-extract', 'file-duckdb'];

export const isSheetsChild = (mode: string): mode is ChildMode => (CHILD_MODES as string[]).includes(mode);

function argOf(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** Runs `work` `repetitions` times; wall and CPU (user + system, helper threads included) are the medians. */
async function repeat<T>(repetitions: number, work: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number; rssBeforeMb: number }> {
  const rssBeforeMb = process.memoryUsage().rss / MB;
  const walls: number[] = [];
  const cpuTimes: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < repetitions; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    value = await work();
    walls.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  return { value: value as T, ms: median(walls), cpuMs: median(cpuTimes), rssBeforeMb };
}

/**
 * This process's peak RSS (VmHWM). Not getrusage's maxrss: Linux carries that over exec from the forked
 * parent, so a child of a parent that once held a large workbook would report the parent's peak.
 */
function peakRssMb(): number {
  const kib = /^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kib ? Number(kib) / 1024 : process.resourceUsage().maxRSS / 1024;
}

function figuresOf(stats: ColumnStats, count = stats.DICT.count): ColumnFigures {
  return { count, min: stats.MIN ?? NaN, max: stats.MAX ?? NaN, mean: stats.MEAN ?? NaN, std: stats.STD ?? NaN };
}

function extractFile(file: string): Promise<ExtractionResult> {
  return extractMetadata({ stream: createReadStream(file, { highWaterMark: 256 * 1024 }), fileName: path.basename(file) }, { extractOption: 'metadata' });
}

function completed(result: ExtractionResult): ExtractionResult {
  if (!result.FILE || result.STATUS !== 'complete') throw new Error(`extraction did not complete: ${result.STATUS} ${result.ERRORS.join('; ')}`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Children

async function workbookExtract(file: string): Promise<Run> {
  const { value: result, ...time } = await repeat(1, async () => completed(await extractFile(file)));
  const figures: Figures = {};
  for (const sheet of result.SHEETS ?? []) {
    figures[sheet.NAME] = Object.fromEntries(NUMERIC.map((name) => [name, figuresOf(sheet.STATS[String(sheet.HEADERS.indexOf(name))])]));
  }
  const rows = (result.SHEETS ?? []).reduce((n, sheet) => n + sheet.TOTAL_ROWS, 0);
  return { ...time, repetitions: 1, peakRssMb: peakRssMb(), rows, figures };
}

/** The reference: the same SheetJS parse, then count, min, max, mean and std of the numeric cells (two passes), nothing else. */
async function workbookSheetjs(file: string): Promise<Run> {
  const { value, ...time } = await repeat(1, async () => {
    const { read } = await import('@e965/xlsx'); // as extraction does: loaded on first use
    const workbook = read(readFileSync(file), EXTRACTION_READ_OPTIONS);
    const figures: Figures = {};
    let rows = 0;
    for (const name of workbook.SheetNames) {
      const data = (workbook.Sheets[name]['!data'] ?? []) as XLSX.CellObject[][];
      const header = (data[0] ?? []).map((cell) => String(cell?.v));
      const columns = NUMERIC.map((column) => ({ column, at: header.indexOf(column), plain: new PlainFigures() }));
      for (let r = 1; r < data.length; r++) {
        rows++;
        for (const { at, plain } of columns) {
          const cell = data[r]?.[at];
          if (cell?.t === 'n') plain.add(cell.v as number);
        }
      }
      figures[name] = Object.fromEntries(columns.map(({ column, plain }) => [column, plain.figures()]));
    }
    return { figures, rows };
  });
  return { ...time, repetitions: 1, peakRssMb: peakRssMb(), ...value };
}

async function fileExtract(file: string, repetitions: number): Promise<Run> {
  const { value: result, ...time } = await repeat(repetitions, async () => completed(await extractFile(file)));
  const table = result.FILE as NonNullable<ExtractionResult['FILE']>;
  const columns: Record<string, ColumnFigures> = {};
  const mixedColumns: Run['mixedColumns'] = [];
  table.HEADERS.forEach((column, i) => {
    const stats = table.STATS[String(i)];
    if (stats.DICT.type !== 'integer' && stats.DICT.type !== 'float') return;
    // A column of at least 90 % numbers is numeric: its text cells count as values but not in the figures.
    const numbers = (stats.DICT.kinds.integer ?? 0) + (stats.DICT.kinds.float ?? 0);
    if (numbers !== stats.DICT.count) mixedColumns.push({ column, cells: stats.DICT.count, numbers });
    columns[column] = figuresOf(stats, numbers);
  });
  return { ...time, repetitions, peakRssMb: peakRssMb(), rows: table.TOTAL_ROWS, figures: { [path.basename(file)]: columns }, mixedColumns };
}

const NUMERIC_SQL = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL.*)$/;
const sqlName = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const sqlText = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** DuckDB: the file into a table with the dialect stated, then one aggregate over its numeric columns. */
async function fileDuckdb(file: string, repetitions: number): Promise<Run> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const dialect = realFile(file).dialect;
  const options = Object.entries(dialect)
    .map(([key, value]) => `, ${key} = ${sqlText(value)}`)
    .join('');
  const { value, ...time } = await repeat(repetitions, async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE t AS SELECT * FROM read_csv(${sqlText(file)}, header = true${options})`);
    const described = (await connection.runAndReadAll('DESCRIBE t')).getRows().map((row) => ({ name: String(row[0]), type: String(row[1]) }));
    // Columns the sniffer left as text may still be mostly numbers (extraction's rule): cast what casts.
    const read = described
      .filter(({ type }) => NUMERIC_SQL.test(type) || type === 'VARCHAR')
      .map(({ name, type }) => ({ name, cast: type === 'VARCHAR', sql: type === 'VARCHAR' ? `TRY_CAST(${sqlName(name)} AS DOUBLE)` : sqlName(name) }));
    const select = read.map(({ sql }) => `count(${sql}), min(${sql}), max(${sql}), avg(${sql}), stddev_samp(${sql})`).join(', ');
    const row = (await connection.runAndReadAll(`SELECT count(*)${select ? `, ${select}` : ''} FROM t`))
      .getRows()[0]
      .map((v) => (v === null ? NaN : Number(v)));
    connection.closeSync();
    instance.closeSync();
    const columns: Record<string, ColumnFigures> = {};
    const castColumns: string[] = [];
    read.forEach(({ name, cast }, i) => {
      const [count, min, max, mean, std] = row.slice(1 + i * 5, 6 + i * 5);
      if (count === 0) return; // text or empty: not a numeric column
      columns[name] = { count, min, max, mean, std };
      if (cast) castColumns.push(name);
    });
    return { rows: row[0], columns, castColumns };
  });
  return { ...time, repetitions, peakRssMb: peakRssMb(), rows: value.rows, figures: { [path.basename(file)]: value.columns }, castColumns: value.castColumns };
}

function realFile(file: string): RealFile {
  const found = REAL_FILES.find((f) => path.basename(f.file) === path.basename(file));
  if (!found) throw new Error(`not a benchmark file: ${file}`);
  return found;
}

export async function runSheetsChild(mode: ChildMode, file: string): Promise<Run | string[]> {
  const repetitions = Number(argOf('repetitions') ?? 1);
  if (mode === 'workbook-write') return writeWorkbooks(file);
  if (mode === 'workbook-extract') return workbookExtract(file);
  if (mode === 'workbook-sheetjs') return workbookSheetjs(file);
  if (mode === 'file-extract') return fileExtract(file, repetitions);
  return fileDuckdb(file, repetitions);
}

function measure<T = Run>(mode: ChildMode, file: string, repetitions = 1): T {
  const child = spawnSync(process.execPath, [path.join(__dirname, 'run.cjs'), `--child=${mode}`, `--file=${file}`, `--repetitions=${repetitions}`], {
    encoding: 'utf8',
    maxBuffer: 16 * MB,
  });
  if (child.status !== 0) throw new Error(`${mode} child failed: ${child.stderr}`);
  return childAnswer<T>(child.stdout);
}

// ---------------------------------------------------------------------------------------------
// Workbooks

const workbookFile = (dir: string, kind: 'xlsx' | 'xls'): string => path.join(dir, `bench-${WORKBOOK_ROWS}-rows.${kind}`);

/** Writes the workbooks that are not in `dir` yet (in a child: writing a BIFF8 file takes gigabytes). */
async function writeWorkbooks(dir: string): Promise<string[]> {
  const files = (['xlsx', 'xls'] as const).map((kind) => ({ kind, file: workbookFile(dir, kind) })).filter(({ file }) => !existsSync(file));
  if (files.length === 0) return [];
  const XLSX = await import('@e965/xlsx');
  const rows = benchRows(42);
  const data = Array.from({ length: WORKBOOK_ROWS }, () => workbookCells(rows.next().value));
  const sheetOf = (part: typeof data): XLSX.WorkSheet => XLSX.utils.aoa_to_sheet([[...BENCH_COLUMNS], ...part], { cellDates: true });
  for (const { kind, file } of files) {
    const workbook = XLSX.utils.book_new();
    if (kind === 'xlsx') XLSX.utils.book_append_sheet(workbook, sheetOf(data), 'rows');
    else
      for (let from = 0; from < data.length; from += XLS_SHEET_ROWS)
        XLSX.utils.book_append_sheet(workbook, sheetOf(data.slice(from, from + XLS_SHEET_ROWS)), `rows ${from + 1}-${from + XLS_SHEET_ROWS}`);
    XLSX.writeFile(workbook, file, { bookType: kind === 'xlsx' ? 'xlsx' : 'biff8', compression: true });
  }
  return files.map(({ file }) => file);
}

// ---------------------------------------------------------------------------------------------
// Section

const fmt = (x: number, digits = 1): string => x.toFixed(digits);
const num = (x: number): string => (Number.isNaN(x) ? '–' : Number.isInteger(x) ? String(x) : x.toPrecision(10));
const flat = (figures: Figures): Record<string, ColumnFigures> =>
  Object.fromEntries(Object.entries(figures).flatMap(([sheet, columns]) => Object.entries(columns).map(([column, f]) => [`${sheet} › ${column}`, f])));

interface SheetsResults {
  /** extract and sheetjs: the runs of median CPU time; cpuMs: every run's, in order. */
  workbooks: Array<{ kind: string; bytes: number; extract: Run; sheetjs: Run; cpuMs: { extract: number[]; sheetjs: number[] } }>;
  files: Array<{ file: RealFile; bytes: number; extract: Run; duckdb: Run }>;
}

export async function runSheetsPart(options: { dir: string; command: string; loadAt: () => string; repetitions: number }): Promise<string> {
  const loadStart = options.loadAt();
  const results: SheetsResults = { workbooks: [], files: [] };
  measure<string[]>('workbook-write', options.dir).forEach((file) => console.log(`generated ${file}`));
  for (const kind of ['xlsx', 'xls'] as const) {
    const file = workbookFile(options.dir, kind);
    const runs = { extract: [] as Run[], sheetjs: [] as Run[] };
    for (let round = 0; round < WORKBOOK_ROUNDS; round++) {
      for (const engine of ['extract', 'sheetjs'] as const) {
        const m = measure(engine === 'extract' ? 'workbook-extract' : 'workbook-sheetjs', file);
        runs[engine].push(m);
        console.log(`${kind} ${engine}: ${fmt(m.ms / 1000, 2)} s (CPU ${fmt(m.cpuMs / 1000, 2)} s), peak RSS ${fmt(m.peakRssMb, 0)} MB`);
      }
    }
    const cpuMs = { extract: runs.extract.map((m) => m.cpuMs), sheetjs: runs.sheetjs.map((m) => m.cpuMs) };
    results.workbooks.push({
      kind,
      bytes: statSync(file).size,
      extract: medianBy(runs.extract, (m) => m.cpuMs),
      sheetjs: medianBy(runs.sheetjs, (m) => m.cpuMs),
      cpuMs,
    });
  }
  const { DATASETS } = await import('@dc/testing'); // here only: it loads browser tooling the children need not carry
  for (const file of REAL_FILES) {
    const where = path.join(DATASETS, file.file);
    const extract = measure('file-extract', where, options.repetitions);
    const duckdb = measure('file-duckdb', where, options.repetitions);
    console.log(`${file.file}: extract ${fmt(extract.ms)} ms (CPU ${fmt(extract.cpuMs)} ms), duckdb ${fmt(duckdb.ms)} ms (CPU ${fmt(duckdb.cpuMs)} ms)`);
    results.files.push({ file, bytes: statSync(where).size, extract, duckdb });
  }
  return sheetsSection(results, options.command, `${loadStart} / ${options.loadAt()}`, options.repetitions);
}

function sheetsSection({ workbooks, files }: SheetsResults, command: string, load: string, repetitions: number): string {
  const { start, end } = sectionMarkers(SHEETS_SECTION);
  const version = (pkg: string): string => JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version as string;
  const lines = [
    start,
    '### Workbooks and real CSV dialects',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, SheetJS \`@e965/xlsx\` ${version('@e965/xlsx')}, DuckDB \`@duckdb/node-api\` ${version('@duckdb/node-api')}).`,
    `Command: \`${command}\` (this section is written by the \`sheets\` part, \`tools/bench/extraction/sheets.bench-part.ts\`).`,
    `Load average (1, 5, 15 min) at the start and end of these tables: ${load} (2 cores shared with other jobs: compare CPU times, not`,
    "wall times). Each figure comes from its own child process, as above; peak RSS here is the child's VmHWM.",
    '',
    `**Workbooks.** ${WORKBOOK_ROWS.toLocaleString('en')} generated rows of the CSV benchmark's columns (the same seeded rows: 4 numeric columns, 2 % of \`score\``,
    'empty, a category, a comment and a date cell), written by SheetJS as one .xlsx sheet and as a BIFF8 .xls, whose sheets hold at most',
    `65,536 rows, so the .xls has two sheets of ${XLS_SHEET_ROWS.toLocaleString('en')} rows. The reference reads the same file with \`XLSX.read\` and the options extraction`,
    'gives SheetJS, then computes count, min, max, mean and std of the 4 numeric columns of every sheet the textbook way (values kept, a',
    "sum, then a second pass over the deviations, where extraction keeps running figures, Welford's way). Extraction reads an .xlsx with",
    "its own streaming reader (libs/extraction/src/xlsx-reader.ts: the zip's parts inflated by Node's zlib, one sheet at a time, its XML",
    'scanned row by row into the column statistics) and an .xls with its own BIFF8 reader (libs/extraction/src/xls-reader.ts: the',
    "compound file's Workbook stream found in the file in memory, each sheet's records walked row by row into the column statistics);",
    'SheetJS reads only what those readers decline. Each is measured',
    `${WORKBOOK_ROUNDS} times, the two alternating; the table shows the run of median CPU time, the line below it every run's CPU. DuckDB is not in`,
    'this table: its `excel` extension is not installed here and would have to be downloaded (`INSTALL excel`; this machine has no',
    'internet), and it reads .xlsx only, not .xls.',
    '',
    '| workbook | rows | engine | wall (CPU), median-CPU run | RSS before → peak | largest relative difference to extractMetadata |',
    '|---|---:|---|---:|---:|---:|',
  ];
  for (const { kind, bytes, extract, sheetjs } of workbooks) {
    const what = `.${kind} (${bytes} bytes${kind === 'xls' ? ', 2 sheets' : ''})`;
    const row = (label: string, m: Run, diff: string): string =>
      `| ${what} | ${m.rows} | ${label} | ${fmt(m.ms / 1000, 2)} s (${fmt(m.cpuMs / 1000, 2)} s) | ${fmt(m.rssBeforeMb, 0)} → ${fmt(m.peakRssMb, 0)} MB | ${diff} |`;
    lines.push(
      row(`\`extractMetadata\` (full META of all 7 columns of every sheet; ${kind === 'xlsx' ? 'streaming .xlsx reader' : 'BIFF8 .xls reader'})`, extract, ''),
    );
    lines.push(
      row(
        "SheetJS `XLSX.read` (extraction's options) + plain count/min/max/mean/std of the 4 numeric columns",
        sheetjs,
        worstDifference(flat(extract.figures), flat(sheetjs.figures)).toExponential(1),
      ),
    );
  }
  lines.push(
    '',
    'CPU of every run (extractMetadata / reference), and the difference of the medians: ' +
      workbooks
        .map(({ kind, extract, sheetjs, cpuMs }) => {
          const seconds = (list: number[]): string => list.map((ms) => fmt(ms / 1000, 2)).join(', ');
          const added = extract.cpuMs - sheetjs.cpuMs;
          return `.${kind} ${seconds(cpuMs.extract)} s / ${seconds(cpuMs.sheetjs)} s, ${added >= 0 ? '+' : '−'}${fmt(Math.abs(added) / 1000, 2)} s (${added >= 0 ? '+' : '−'}${fmt(Math.abs((100 * added) / sheetjs.cpuMs), 0)} %)`;
        })
        .join('; ') +
      '.',
    '',
    'The numeric figures side by side (extractMetadata / reference):',
    '',
    '| workbook | sheet | column | count | min | max | mean | std |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const { kind, extract, sheetjs } of workbooks) {
    for (const [sheet, columns] of Object.entries(extract.figures)) {
      for (const name of NUMERIC) {
        const cell = (key: keyof ColumnFigures): string => `${num(columns[name][key])} / ${num(sheetjs.figures[sheet]?.[name]?.[key] ?? NaN)}`;
        lines.push(`| .${kind} | ${sheet} | ${name} | ${cell('count')} | ${cell('min')} | ${cell('max')} | ${cell('mean')} | ${cell('std')} |`);
      }
    }
  }
  lines.push(
    '',
    `**Real CSV dialects** (shared test datasets). These files are small, so each engine reads each file ${repetitions} times in one child`,
    'process and the table gives the median wall and CPU time of one reading (peak RSS is over all of them). `extractMetadata` finds the',
    'dialect itself; DuckDB is told it (`read_csv(…, header = true, …)` with the parameters shown, no sniffing of delimiter, quote,',
    'decimal separator or encoding), reads the file into a table and aggregates count, min, max, avg and stddev_samp of every column it',
    'typed as a number; its time includes creating the in-memory instance each time, as in the CSV table above, which on files this',
    'small is much of it. The comparison covers the columns both call numeric; "count" is the number of numeric cells.',
    '',
    '| file | what makes it hard | engine | median wall (CPU) | RSS before → peak | rows | numeric columns (both) | largest relative difference to extractMetadata |',
    '|---|---|---|---:|---:|---:|---:|---:|',
  );
  for (const { file, bytes, extract, duckdb } of files) {
    const name = path.basename(file.file);
    const ours = extract.figures[name];
    const theirs = duckdb.figures[name];
    const both = Object.keys(ours).filter((c) => theirs[c]);
    const dialect = Object.entries(file.dialect)
      .map(([k, v]) => `${k} = '${v}'`)
      .join(', ');
    const row = (label: string, m: Run, columns: string, diff: string): string =>
      `| ${name} (${bytes} bytes) | ${file.what} | ${label} | ${fmt(m.ms)} ms (${fmt(m.cpuMs)} ms) | ${fmt(m.rssBeforeMb, 0)} → ${fmt(m.peakRssMb, 0)} MB | ${m.rows} | ${columns} | ${diff} |`;
    lines.push(row('`extractMetadata` (full META)', extract, String(Object.keys(ours).length), ''));
    lines.push(
      row(
        `DuckDB \`read_csv\` (${dialect}) + aggregate`,
        duckdb,
        `${Object.keys(theirs).length} (${both.length})`,
        worstDifference(ours, theirs, both).toExponential(1),
      ),
    );
  }
  lines.push('', 'Where the two readings differ, and why (from this run):');
  for (const { file, extract, duckdb } of files) {
    const name = path.basename(file.file);
    const ours = Object.keys(extract.figures[name]);
    const theirs = Object.keys(duckdb.figures[name]);
    const notes: string[] = [];
    if (extract.rows !== duckdb.rows)
      notes.push(`rows ${extract.rows} vs ${duckdb.rows} (DuckDB counts records whose fields are all empty; extraction skips blank records)`);
    for (const { column, cells, numbers } of extract.mixedColumns ?? [])
      notes.push(
        `\`${column}\`: ${cells} values of which ${numbers} numbers (numeric by extraction's 90 % rule; its text cells count as values, not in the figures)`,
      );
    if (duckdb.castColumns?.length)
      notes.push(`DuckDB typed ${duckdb.castColumns.map((c) => `\`${c}\``).join(', ')} VARCHAR; read here with TRY_CAST(… AS DOUBLE)`);
    const onlyOurs = ours.filter((c) => !theirs.includes(c));
    const onlyTheirs = theirs.filter((c) => !ours.includes(c));
    if (onlyOurs.length) notes.push(`numeric for extraction only: ${onlyOurs.map((c) => `\`${c}\``).join(', ')}`);
    if (onlyTheirs.length) notes.push(`numeric for DuckDB only: ${onlyTheirs.map((c) => `\`${c}\``).join(', ')}`);
    lines.push(`- ${name}: ${notes.length ? notes.join('; ') : 'none'}.`);
  }
  lines.push('', SHEETS_NOTES, end);
  return lines.join('\n');
}

/** Written by hand: what the figures above mean (kept in the generated section). */
const SHEETS_NOTES = [
  "Issue 13's target for workbooks (the full statistics of a 100,000-row workbook at least as fast as the reference parse of the",
  'same workbook, peak RSS under 300 MB whatever its size) is met for .xlsx and for .xls. In the run of 2026-11-27 (load 3.6-4.4),',
  "the .xlsx's full META took 2.0 s of CPU against 4.1 s for SheetJS's parse with plain statistics, at a peak of 197 MB against",
  "439 MB; the .xls's took 1.7 s against 5.3 s, at 207 MB against 667 MB (read by SheetJS before: 6.3 s against 5.5 s, at 686 MB).",
  "Both give the same META as SheetJS's path, byte for byte. Their memory does not grow with a sheet's length (a row of cells at a",
  "time); what is held is the file itself (read into memory under maxSpreadsheetBytes, 50 MB by default: a zip's directory is at its",
  "end, and a compound file's sectors are found through its FAT) and the shared string table, which grows with the distinct texts",
  'of the workbook (these workbooks have none: SheetJS writes inline texts, LABEL records in the .xls).',
  '',
  'Typing rules that differ legitimately: extraction reads decimal commas (`2,6`) as numbers on its own, DuckDB only when told',
  "`decimal_separator = ','` (without it, AirQualityUCI.csv's decimal-comma columns are VARCHAR); extraction decodes bytes that are",
  "not UTF-8 as Windows-1252 and says so in ERRORS and CSV.ENCODING, DuckDB reads Latin-1 when told `encoding = 'latin-1'` (built",
  "into this version, no conversion needed; other encodings need its `encodings` extension, a download). AirQualityUCI.csv's -200",
  "is the data set's sentinel for a missing reading; both count it as a number.",
  '',
  'Where workbook extraction spends its time (CPU profiles, `node --cpu-prof`, the 100,000-row files). Before the streaming reader,',
  "four fifths of an .xlsx's extraction was SheetJS's `read` (XML parsing of the sheet, its own JavaScript inflate of the zip parts,",
  "decoding the parts to strings, formatting every cell's display text `.w`), and SheetJS held the whole workbook (peak 440 MB). The",
  "streaming reader inflates with Node's zlib (a fifth of its time), scans each row's cells with string searches, holds only the",
  'shared string table and the first rows (to find the header), and formats display texts only for the cells META shows (the first',
  '5 rows, and the sampled cells with extractOption samples); the column accumulators are now about a quarter of the time. It reads',
  'every cell as SheetJS did (its rules are ported in xlsx-text.ts) and declines whatever it does not read the same way, which SheetJS',
  'then reads: xlsx-reader.spec.ts compares both on every shared and generated workbook. With column sketches (the catalogue), every',
  'sheet is first read once for its width (column count), so that no sketch is opened twice; without, the width comes from the',
  "sheet's declared range and the sheet is read again only when the rows prove it wrong.",
  "The .xls reader (xls-reader.ts) finds the Workbook stream through the compound file's header, DIFAT, FAT and directory (no copy",
  'when its sectors lie in one piece, as they do in files Excel and SheetJS write), reads the globals once (code page, date system,',
  "number formats, XFs, the shared string table with its CONTINUE records, the sheet directory), then walks each sheet's records into",
  'rows: NUMBER, RK, MULRK, LABELSST, LABEL, BOOLERR, FORMULA results with their STRING records, DIMENSIONS; blanks are skipped, as',
  "SheetJS skips them. It types and formats cells by SheetJS's rules (number formats and date detection through SheetJS's own SSF,",
  'display texts only for the cells META shows) and declines, for SheetJS to read as before, whatever it does not read the same way:',
  'BIFF2-5 workbooks, encryption, code pages other than UTF-16, cell notes, chart sheets, cells out of row order, number formats the',
  'workbook uses without defining them, damaged containers. xls-reader.spec.ts compares both on the shared .xls files, on workbooks',
  'SheetJS writes and on workbooks built there record by record. Before it, SheetJS read every .xls whole: its BIFF reader allocates',
  'so much that the garbage collector took a third of the CPU, and formatting display texts a fifth; `cellText: false` (4.6 s CPU',
  'instead of 5.2 s, peak 614 MB instead of 627 MB) and one sheet at a time with `sheets:` (8.2 s CPU, 695 MB: SheetJS still walks the',
  "whole BIFF stream each time) were measured and not taken. SheetJS's switch to Node's native zlib (`CFB.utils.use_zlib`) refuses",
  'Node 24\'s zlib ("zlib does not expose bytesRead").',
].join('\n');
