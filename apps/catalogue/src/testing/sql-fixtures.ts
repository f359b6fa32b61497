import { readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type mysql from 'mysql2/promise';
import type { Client } from 'pg';
import { detectDelimiter } from '@dc/extraction';
import { DATASETS } from './catalogue-test-app';

/** A dataset CSV as header and rows of text, read as the catalogue reads it (delimiter detection). */
export function readDatasetCsv(relative: string): { header: string[]; rows: string[][] } {
  const text = readFileSync(path.join(DATASETS, relative), 'utf8');
  const delimiter = detectDelimiter(text.slice(0, 64 * 1024), relative);
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: 'greedy' });
  const [header, ...rows] = parsed.data;
  return { header, rows };
}

type ColumnKind = 'integer' | 'double' | 'text';

/**
 * Each column as a database would type it: integers and doubles when every filled cell reads back
 * as the same text (so the table holds the same values as the file), text otherwise. Empty cells
 * of numeric columns become NULL; text cells stay as they are.
 */
function kindsOf(header: string[], rows: string[][]): ColumnKind[] {
  return header.map((_, i) => {
    const cells = rows.map((r) => (r[i] ?? '').trim()).filter((c) => c !== '');
    if (cells.length === 0) return 'text';
    if (cells.every((c) => /^-?\d{1,15}$/.test(c) && String(Number(c)) === c)) return 'integer';
    if (cells.every((c) => /^-?\d+(\.\d+)?$/.test(c) && String(Number(c)) === c)) return 'double';
    return 'text';
  });
}

const value = (cell: string | undefined, kind: ColumnKind) => (kind === 'text' ? (cell ?? '') : (cell ?? '').trim() === '' ? null : Number(cell));

/** Loads a dataset CSV into a new MariaDB table (in batches). */
export async function loadCsvIntoMysql(connection: mysql.Connection, table: string, relative: string): Promise<{ header: string[]; rows: string[][] }> {
  const { header, rows } = readDatasetCsv(relative);
  const kinds = kindsOf(header, rows);
  const q = (name: string) => `\`${name.replace(/`/g, '``')}\``;
  const types = { integer: 'BIGINT', double: 'DOUBLE', text: 'TEXT' };
  await connection.query(`CREATE TABLE ${q(table)} (${header.map((h, i) => `${q(h)} ${types[kinds[i]]} NULL`).join(', ')})`);
  for (let start = 0; start < rows.length; start += 1000) {
    const batch = rows.slice(start, start + 1000).map((row) => header.map((_, i) => value(row[i], kinds[i])));
    await connection.query(`INSERT INTO ${q(table)} VALUES ?`, [batch]);
  }
  return { header, rows };
}

/** Loads a dataset CSV into a new PostgreSQL table (in batches). */
export async function loadCsvIntoPostgres(client: Client, table: string, relative: string): Promise<{ header: string[]; rows: string[][] }> {
  const { header, rows } = readDatasetCsv(relative);
  const kinds = kindsOf(header, rows);
  const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const types = { integer: 'bigint', double: 'double precision', text: 'text' };
  await client.query(`CREATE TABLE ${q(table)} (${header.map((h, i) => `${q(h)} ${types[kinds[i]]} NULL`).join(', ')})`);
  for (let start = 0; start < rows.length; start += 500) {
    const batch = rows.slice(start, start + 500);
    const params: unknown[] = [];
    const tuples = batch.map((row) => `(${header.map((_, i) => (params.push(value(row[i], kinds[i])), `$${params.length}`)).join(', ')})`);
    await client.query(`INSERT INTO ${q(table)} VALUES ${tuples.join(', ')}`, params);
  }
  return { header, rows };
}
