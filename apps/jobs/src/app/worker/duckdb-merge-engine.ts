import { DuckDBInstance } from '@duckdb/node-api';
import { MergeEngine, type MergeOutcome, type MergePlan, rightHeaderName } from './merge-engine';

export interface DuckdbMergeSettings {
  /** DuckDB's memory limit; past it, the join spills to its temporary directory. */
  memoryLimit: string;
  threads: number;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** Every value as text (nothing re-formatted), the first line as headers, the dialect sniffed. */
const readCsv = (path: string) => `read_csv(${literal(path)}, header = true, all_varchar = true, sample_size = 20480)`;

/**
 * The merge engine on DuckDB: one in-process database per merge, with a memory limit and a spill
 * directory, reading both files and writing the result with one COPY statement.
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
        const kept = rightHeaders.filter((h) => !joined.has(h)).map((h) => {
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
      const copied = await db.runAndReadAll(`COPY (${select}) TO ${literal(plan.outputPath)} (FORMAT csv, HEADER true)`);
      return { rows: Number(copied.getRows()[0]?.[0] ?? 0), headers };
    } finally {
      db.closeSync();
      instance.closeSync();
    }
  }
}
