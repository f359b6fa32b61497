import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';

/** The nearest shared/datasets above this file: beside the repository (CI, /work/main) or above a worktree. */
function findDatasets(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'shared/datasets'))) return path.join(dir, 'shared/datasets');
  }
  return path.resolve(__dirname, '../../../../shared/datasets');
}

/** The real test datasets (their README describes them), for suites outside the catalogue and extraction library. */
export const DATASETS = findDatasets();

/** A CSV's rows as arrays of text (header row first), parsed by papaparse. */
export function csvRows(csv: string): string[][] {
  return Papa.parse<string[]>(csv.trim(), { skipEmptyLines: true }).data;
}

/**
 * The inner join of two CSV files on equally named key columns, computed here independently of the
 * product: every left row with every right row of equal keys, then the right row's other columns.
 * Rows come as JSON strings, sorted, so that results of any row order compare equal.
 */
export function innerJoinOf(leftFile: string, rightFile: string, keys: string[]): { header: string[]; rows: string[] } {
  const [leftHeader, ...left] = csvRows(readFileSync(leftFile, 'utf8'));
  const [rightHeader, ...right] = csvRows(readFileSync(rightFile, 'utf8'));
  const keyOf = (row: string[], header: string[]) => JSON.stringify(keys.map((k) => row[header.indexOf(k)]));
  const byKey = new Map<string, string[][]>();
  for (const row of right) byKey.set(keyOf(row, rightHeader), [...(byKey.get(keyOf(row, rightHeader)) ?? []), row]);
  const kept = rightHeader.map((_, i) => i).filter((i) => !keys.includes(rightHeader[i]));
  const rows = left.flatMap((l) => (byKey.get(keyOf(l, leftHeader)) ?? []).map((r) => JSON.stringify([...l, ...kept.map((i) => r[i])])));
  return { header: [...leftHeader, ...kept.map((i) => rightHeader[i])], rows: rows.sort() };
}

/** Rows (header excluded) as innerJoinOf gives them: JSON strings, sorted. */
export const sortedRows = (rows: string[][]) => rows.map((r) => JSON.stringify(r)).sort();
