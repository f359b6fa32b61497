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

/**
 * How long opening a session may take, name lookup and login included (README "SQL tables"): a
 * test of a wrong host or port answers "did not answer in time" after this, never hangs.
 */
export const CONNECT_TIME_LIMIT_MS = 5_000;

export const DEFAULT_SQL_LIMITS: SqlLimits = { connectTimeoutMs: CONNECT_TIME_LIMIT_MS, statementTimeoutMs: 60_000 };

/**
 * Why a connection failed, in terms a user can act on. `not_allowed` is decided before any
 * connection is tried and is the one answer for every address the operator does not allow, so that
 * the form cannot map the server's own network (no "refused" or "timeout" for those).
 */
export const CONNECTION_FAILURES = ['not_allowed', 'not_found', 'unreachable', 'refused', 'timeout', 'login_failed', 'database_missing', 'failed'] as const;
export type ConnectionFailure = (typeof CONNECTION_FAILURES)[number];

/** A failure to connect, log in or query, with its reason. */
export class SqlConnectionError extends Error {
  constructor(readonly reason: ConnectionFailure = 'failed') {
    super(reason);
  }
}

/** The network part of a driver's error (Node's socket error codes), shared by both drivers. */
export function networkFailure(error: unknown): ConnectionFailure | null {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return 'unreachable';
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return 'timeout';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'not_found';
    default:
      return null;
  }
}

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
