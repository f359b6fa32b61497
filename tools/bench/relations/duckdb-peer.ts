// The relations benchmark's peer, in its own process so that its peak RSS is its own: DuckDB loads
// the two large CSVs into in-memory tables, then computes exactly what the joining and linkability
// relations estimate or count: per shared column the distinct values each side has and shares
// (containment both ways), the left rows whose value occurs on the right, and the rows joined on
// person_id. Prints one JSON line. (Import only its types: running it is what loading it does.)
//   node tools/scripts/run-ts.cjs tools/bench/relations/duckdb-peer.ts <left.csv> <right.csv>
import { DuckDBInstance } from '@duckdb/node-api';

const SHARED_COLUMNS = ['person_id', 'first_name', 'last_name', 'birth_year', 'postcode'];

export interface PeerColumn {
  column: string;
  distinctLeft: number;
  distinctRight: number;
  distinctShared: number;
  /** Left rows whose value occurs in the right column (linkability's total_matches). */
  leftRowsMatched: number;
}

export interface PeerResult {
  loadMs: number;
  joiningMs: number;
  linkMs: number;
  /** CPU time (user + system) of each phase, DuckDB's threads included. */
  loadCpuMs: number;
  joiningCpuMs: number;
  linkCpuMs: number;
  columns: PeerColumn[];
  /** Rows of the left table with a right row of the same person_id. */
  joinedRows: number;
  peakRssMb: number;
}

async function main(): Promise<void> {
  const [left, right] = process.argv.slice(2);
  const quote = (file: string) => `'${file.replace(/'/g, "''")}'`;
  const instance = await DuckDBInstance.create(':memory:');
  const db = await instance.connect();
  const number = async (sql: string) => Number((await db.runAndReadAll(sql)).getRows()[0][0]);

  const cpuSince = (from: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(from);
    return (used.user + used.system) / 1000;
  };
  let cpu = process.cpuUsage();
  let started = performance.now();
  await db.run(`CREATE TABLE a AS SELECT * FROM read_csv(${quote(left)}, header = true)`);
  await db.run(`CREATE TABLE b AS SELECT * FROM read_csv(${quote(right)}, header = true)`);
  const loadMs = performance.now() - started;
  const loadCpuMs = cpuSince(cpu);

  cpu = process.cpuUsage();
  started = performance.now();
  const columns: PeerColumn[] = [];
  for (const c of SHARED_COLUMNS) {
    const [distinctLeft, distinctRight, distinctShared] = (
      await db.runAndReadAll(`WITH l AS (SELECT DISTINCT ${c} AS v FROM a WHERE ${c} IS NOT NULL), r AS (SELECT DISTINCT ${c} AS v FROM b WHERE ${c} IS NOT NULL)
        SELECT (SELECT count(*) FROM l), (SELECT count(*) FROM r), (SELECT count(*) FROM l JOIN r USING (v))`)
    )
      .getRows()[0]
      .map(Number);
    columns.push({ column: c, distinctLeft, distinctRight, distinctShared, leftRowsMatched: 0 });
  }
  const joiningMs = performance.now() - started;
  const joiningCpuMs = cpuSince(cpu);

  cpu = process.cpuUsage();
  started = performance.now();
  for (const column of columns) column.leftRowsMatched = await number(`SELECT count(*) FROM a WHERE ${column.column} IN (SELECT ${column.column} FROM b)`);
  const joinedRows = await number('SELECT count(*) FROM a JOIN b USING (person_id)');
  const linkMs = performance.now() - started;
  const linkCpuMs = cpuSince(cpu);

  db.closeSync();
  instance.closeSync();
  const result: PeerResult = {
    loadMs,
    joiningMs,
    linkMs,
    loadCpuMs,
    joiningCpuMs,
    linkCpuMs,
    columns,
    joinedRows,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
