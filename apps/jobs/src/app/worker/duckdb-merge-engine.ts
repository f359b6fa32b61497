import { DuckDBInstance } from '@duckdb/node-api';
import { stat } from 'node:fs/promises';
import { MergeEngine, MergeLimitExceeded, type MergeOutcome, type MergePlan, rightHeaderName } from './merge-engine';

export interface DuckdbMergeSettings {
  /** DuckDB's memory limit; past it, the join spills to its temporary directory. */
  memoryLimit: string;
  threads: number;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** Every value as text (nothing re-formatted), the first line as headers, the dialect sniffed. */
const readCsv = (path: string) => `read_csv(${literal(path)}, header = true, all_varchar = true, sample_size = 20480)`;

/** How often the output's size is read while COPY writes it: at the 10-300 MB/s DuckDB wrote here, up to about 7 MB pass the limit before the stop. */
const SIZE_POLL_MS = 25;

/** Calls stop once the file COPY is writing passes maxBytes: COPY itself has no byte limit. */
function watchSize(file: string, maxBytes: number, stop: () => void) {
  const seen = { passed: false, bytes: 0 };
  let reading = false;
  let ended = false;
  const timer = setInterval(() => {
    if (reading || seen.passed) return;
    reading = true;
    void stat(file)
      .then(
        (s) => {
          // A look that returns after the COPY ended must not interrupt a closed connection.
          if (ended) return;
          seen.bytes = s.size;
          if (s.size > maxBytes) {
            seen.passed = true;
            stop();
          }
        },
        () => undefined,
      )
      .finally(() => (reading = false));
  }, SIZE_POLL_MS);
  return {
    seen,
    end: () => {
      ended = true;
      clearInterval(timer);
    },
  };
}

/**
 * The merge engine on DuckDB: one in-process database per merge, with a memory limit and a spill
 * directory, reading both files and writing the result with one COPY statement. Rows are bounded
 * by a LIMIT one past the limit, bytes by watching the output grow and interrupting the COPY.
 */
export class DuckdbMergeEngine extends MergeEngine {
  constructor(private readonly settings: DuckdbMergeSettings) {
    super();
  }

  async merge(plan: MergePlan): Promise<MergeOutcome> {
    const instance = await DuckDBInstance.create(':memory:', {
      memory_limit: this.settings.memoryLimit,
      threads: String(this.settings.threads),
      // Spilled data goes beside the output, in the job's own working directory.
      temp_directory: `${plan.outputPath}.spill`,
      // Also makes LIMIT a streaming limit: with insertion order kept, DuckDB would gather the rows first.
      preserve_insertion_order: 'false',
    });
    const db = await instance.connect();
    try {
      const headersOf = async (path: string) => (await db.runAndReadAll(`DESCRIBE SELECT * FROM ${readCsv(path)}`)).getRows().map((row) => String(row[0]));
      const [leftHeaders, rightHeaders] = [await headersOf(plan.left.path), await headersOf(plan.right.path)];
      let select: string;
      let headers: string[];
      if (plan.mergeType === 'horizontal') {
        const joined = new Set(plan.pairs.map((p) => p.right));
        const taken = new Set(leftHeaders);
        const kept = rightHeaders
          .filter((h) => !joined.has(h))
          .map((h) => {
            const as = rightHeaderName(h, plan.right.name, taken);
            taken.add(as);
            return { h, as };
          });
        headers = [...leftHeaders, ...kept.map((k) => k.as)];
        const columns = [...leftHeaders.map((h) => `l.${ident(h)}`), ...kept.map((k) => `r.${ident(k.h)} AS ${ident(k.as)}`)];
        const on = plan.pairs.map((p) => `l.${ident(p.left)} = r.${ident(p.right)}`).join(' AND ');
        select = `SELECT ${columns.join(', ')} FROM ${readCsv(plan.left.path)} l JOIN ${readCsv(plan.right.path)} r ON ${on}`;
      } else {
        headers = plan.pairs.map((p) => p.left);
        const left = plan.pairs.map((p) => ident(p.left)).join(', ');
        const right = plan.pairs.map((p) => `${ident(p.right)} AS ${ident(p.left)}`).join(', ');
        select = `SELECT ${left} FROM ${readCsv(plan.left.path)} UNION ALL SELECT ${right} FROM ${readCsv(plan.right.path)}`;
      }
      const { maxRows, maxBytes } = plan.limits;
      // DuckDB stops the join once the limit has its rows (docs/jobs.md, "Limits": measured).
      const copy = `COPY (SELECT * FROM (${select}) LIMIT ${maxRows + 1}) TO ${literal(plan.outputPath)} (FORMAT csv, HEADER true)`;
      const watch = watchSize(plan.outputPath, maxBytes, () => db.interrupt());
      let rows: number;
      try {
        rows = Number((await db.runAndReadAll(copy)).getRows()[0]?.[0] ?? 0);
      } catch (error) {
        if (watch.seen.passed) throw new MergeLimitExceeded('maxBytes', { rows: null, bytes: watch.seen.bytes });
        throw error;
      } finally {
        watch.end();
      }
      const bytes = (await stat(plan.outputPath)).size;
      if (rows > maxRows) throw new MergeLimitExceeded('maxRows', { rows, bytes });
      // The COPY may have ended between two looks at its size.
      if (bytes > maxBytes) throw new MergeLimitExceeded('maxBytes', { rows, bytes });
      return { rows, headers };
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  }
}
