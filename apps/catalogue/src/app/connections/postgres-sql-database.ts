import { Client } from 'pg';
import {
  type ConnectionFailure,
  DEFAULT_SQL_LIMITS,
  networkFailure,
  SqlConnectionError,
  SqlDatabases,
  type SqlLimits,
  type SqlSession,
  type SqlTable,
  type SqlTarget,
} from './sql-database';
import { type SqlDialect, SqlTableSource } from './sql-table-source';

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

const dialect: SqlDialect = {
  quote,
  text: (column) => `btrim(${column}::text)`,
  matches: (text, pattern) => `(${text} ~ '${pattern}')`,
  double: (text) => `CAST(${text} AS double precision)`,
  exact: (text) => text,
  random: 'random()',
};

/** Why pg could not connect: its socket error, a server error code (SQLSTATE), or its time-out. */
export function postgresFailure(error: unknown): ConnectionFailure {
  const network = networkFailure(error);
  if (network) return network;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // 28P01 wrong password; 28000 unknown role or refused by pg_hba.conf.
  if (code === '28P01' || code === '28000') return 'login_failed';
  if (code === '3D000') return 'database_missing';
  const text = typeof message === 'string' ? message : '';
  if (/timeout|timed out/i.test(text)) return 'timeout';
  // pg's own message when the server asks for a password and none was given.
  if (/password/i.test(text)) return 'login_failed';
  return 'failed';
}

/** PostgreSQL through pg: one client per session, read-only transactions, statement and connect time-outs. */
export class PostgresSqlDatabases extends SqlDatabases {
  async open(target: SqlTarget, limits: SqlLimits = DEFAULT_SQL_LIMITS): Promise<SqlSession> {
    const client = new Client({
      host: target.address,
      port: target.port,
      user: target.username,
      password: target.password,
      database: target.database,
      connectionTimeoutMillis: limits.connectTimeoutMs,
      statement_timeout: limits.statementTimeoutMs,
      query_timeout: limits.statementTimeoutMs + 5_000,
      options: '-c default_transaction_read_only=on',
      application_name: 'data-catalogue',
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw new SqlConnectionError(postgresFailure(error));
    }
    return new PostgresSession(client);
  }
}

class PostgresSession implements SqlSession {
  private listing?: Array<SqlTable & { schema: string; table: string }>;

  constructor(private readonly client: Client) {}

  private readonly run = async (sql: string, values: unknown[] = []): Promise<unknown[][]> => {
    try {
      return (await this.client.query({ text: sql, values, rowMode: 'array' })).rows as unknown[][];
    } catch {
      throw new SqlConnectionError('failed');
    }
  };

  async tables(): Promise<SqlTable[]> {
    if (this.listing) return this.listing.map(({ name, columns }) => ({ name, columns }));
    const rows = await this.run(
      `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
         FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND t.table_type IN ('BASE TABLE', 'VIEW')
        ORDER BY c.table_schema, c.table_name, c.ordinal_position`,
    );
    const tables = new Map<string, SqlTable & { schema: string; table: string }>();
    for (const [schema, table, column, type] of rows as string[][]) {
      const name = schema === 'public' ? table : `${schema}.${table}`;
      const entry = tables.get(name) ?? { name, schema, table, columns: [] };
      entry.columns.push({ name: column, type });
      tables.set(name, entry);
    }
    this.listing = [...tables.values()];
    return this.tables();
  }

  private async find(name: string) {
    await this.tables();
    return this.listing!.find((t) => t.name === name) ?? null;
  }

  async preview(name: string, rows: number) {
    const table = await this.find(name);
    if (!table) return null;
    const from = `${quote(table.schema)}.${quote(table.table)}`;
    const raw = await this.run(`SELECT ${table.columns.map((c) => `${quote(c.name)}::text`).join(', ')} FROM ${from} LIMIT ${Math.floor(rows)}`);
    const [[total]] = await this.run(`SELECT COUNT(*) FROM ${from}`);
    return { HEADERS: table.columns.map((c) => c.name), RAW: raw as Array<Array<string | null>>, TOTAL_ROWS: Number(total) };
  }

  async tableSource(name: string) {
    const table = await this.find(name);
    if (!table) return null;
    return new SqlTableSource(
      dialect,
      `${quote(table.schema)}.${quote(table.table)}`,
      table.columns.map((c) => c.name),
      (sql) => this.run(sql),
    );
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
