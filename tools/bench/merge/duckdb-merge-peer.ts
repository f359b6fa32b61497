// The merge benchmark's peer, in its own process so that its peak RSS is its own: DuckDB with one
// thread joins the two CSVs on person_id and writes the result CSV, as the product's merge does
// (every value as text, all columns of the left, the other columns of the right). Prints one JSON line.
//   node tools/scripts/run-ts.cjs tools/bench/merge/duckdb-merge-peer.ts <left.csv> <right.csv> <out.csv>
import { DuckDBInstance } from '@duckdb/node-api';

export interface MergePeerResult {
  ms: number;
  cpuMs: number;
  rows: number;
  peakRssMb: number;
}

async function main(): Promise<void> {
  const [left, right, out] = process.argv.slice(2);
  const quote = (file: string) => `'${file.replace(/'/g, "''")}'`;
  const read = (file: string) => `read_csv(${quote(file)}, header = true, all_varchar = true)`;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const db = await instance.connect();
  const rightColumns = (await db.runAndReadAll(`DESCRIBE SELECT * FROM ${read(right)}`))
    .getRows()
    .map((r) => String(r[0]))
    .filter((c) => c !== 'person_id');
  const select = `SELECT l.*, ${rightColumns.map((c) => `r."${c}" AS "${c} (right)"`).join(', ')} FROM ${read(left)} l JOIN ${read(right)} r ON l.person_id = r.person_id`;
  const copied = await db.runAndReadAll(`COPY (${select}) TO ${quote(out)} (FORMAT csv, HEADER true)`);
  const rows = Number(copied.getRows()[0]?.[0] ?? 0);
  const used = process.cpuUsage(cpu);
  const result: MergePeerResult = {
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    rows,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  console.log(JSON.stringify(result));
}

void main();
