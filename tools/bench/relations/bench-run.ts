// What the relations and merge benchmarks of the product share: their command line and the machine figures they report.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { type EmbeddedProduct, startEmbeddedProduct } from '@dc/testing';
import { freshDatabase } from '../process-probe';
import { type PeopleFiles, peopleFiles } from './people-data';

/** The arguments after the script's name that are not flags (`--no-write`). */
export const positionalArgs = (): string[] => process.argv.slice(2).filter((a) => !a.startsWith('--'));

/** Whether the results replace the benchmark's section of docs/benchmarks.md (not with `--no-write`). */
export const writesResults = (): boolean => !process.argv.includes('--no-write');

/** The machine's 1, 5 and 15 minute load averages, e.g. `0.4, 0.6, 0.7`. */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(', ');

/** Bytes in whole MiB, e.g. `512 MB`. */
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** What a benchmark on the people files works with while the product runs. */
export interface PeopleBench {
  files: PeopleFiles;
  /** The gateway's base URL, the product's process id and its SQL connection. */
  base: string;
  pid: number;
  app: EmbeddedProduct['app'];
  db: Client;
  dataDir: string;
}

/**
 * Generates (or reuses) the people files of `rows` rows, starts the product in embedded mode (logs
 * at info) on a fresh database and a new DATA_DIR, runs the benchmark, then stops the product and
 * removes DATA_DIR. The server must be built (buildServer) first.
 */
export async function withPeopleBench<T>(rows: number, database: string, dataDirPrefix: string, run: (bench: PeopleBench) => Promise<T>): Promise<T> {
  console.log(`generating ${rows} rows...`);
  const files = await peopleFiles(path.join(os.tmpdir(), `dc-bench-relations-${rows}`), rows);
  const databaseUrl = await freshDatabase(database);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  chmodSync(dataDir, 0o755);
  const { base, app, pid } = await startEmbeddedProduct(dataDirPrefix, (address) => ({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PUBLIC_URL: address,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'info',
  }));
  const db = new Client({ connectionString: databaseUrl });
  try {
    await db.connect();
    return await run({ files, base, pid, app, db, dataDir });
  } finally {
    await db.end().catch(() => undefined);
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
