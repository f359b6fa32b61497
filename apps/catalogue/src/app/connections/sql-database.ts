import type { AggregatedTableSource } from '@dc/extraction';

export const SQL_TYPES = ['mysql', 'postgresql'] as const;
export type SqlType = (typeof SQL_TYPES)[number];

/** Where to connect: the host is already resolved and checked (EndpointGuard). */
export interface SqlTarget {
  sqltype: SqlType;
  /** The checked address to connect to. */
  address: string;
  port: number;
  database: string;
  username: string;
  password: string;
}

export interface SqlColumn {
  name: string;
  type: string;
}

export interface SqlTable {
  /** As shown and asked for: `table`, or `schema.table` outside PostgreSQL's public schema. */
  name: string;
  columns: SqlColumn[];
}

export interface SqlPreview {
  HEADERS: string[];
  RAW: Array<Array<string | null>>;
  TOTAL_ROWS: number;
}

/** Time limits of a session: the customer's database is not kept waiting on us, nor we on it. */
export interface SqlLimits {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

export const DEFAULT_SQL_LIMITS: SqlLimits = { connectTimeoutMs: 10_000, statementTimeoutMs: 60_000 };

/** Any failure to connect, log in or query: callers answer one word, "failed", whatever the cause. */
export class SqlConnectionError extends Error {}

/**
 * One read-only session on a customer's database, used for one request and closed: statements run
 * one after the other, identifiers are quoted, and tables are only ever named from the listing.
 */
export interface SqlSession {
  tables(): Promise<SqlTable[]>;
  /** Null when the table is not in the listing. */
  preview(table: string, rows: number): Promise<SqlPreview | null>;
  /** Null when the table is not in the listing. */
  tableSource(table: string): Promise<AggregatedTableSource | null>;
  close(): Promise<void>;
}

/** Port: opens sessions on MySQL/MariaDB (mysql2) or PostgreSQL (pg). Throws SqlConnectionError. */
export abstract class SqlDatabases {
  abstract open(target: SqlTarget, limits?: SqlLimits): Promise<SqlSession>;
}
