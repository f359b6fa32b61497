import mysql from 'mysql2/promise';
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

const dialect: SqlDialect = {
  quote: (identifier) => `\`${identifier.replace(/`/g, '``')}\``,
  text: (column) => `TRIM(CAST(${column} AS CHAR))`,
  // Binary: a case-insensitive collation would let [eE] and [T ] match more than classify() does.
  matches: (text, pattern) => `(CAST(${text} AS BINARY) REGEXP '${pattern}')`,
  double: (text) => `CAST(${text} AS DOUBLE)`,
  exact: (text) => `CAST(${text} AS BINARY)`,
  random: 'RAND()',
};

/** Why mysql2 could not connect: its socket error or the server's error. */
export function mysqlFailure(error: unknown): ConnectionFailure {
  const network = networkFailure(error);
  if (network) return network;
  switch ((error as { code?: unknown } | null)?.code) {
    case 'ER_ACCESS_DENIED_ERROR': // wrong user or password
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR': // MariaDB's answer for an unknown user (1698)
    case 'ER_HOST_NOT_PRIVILEGED': // this user may not log in from the catalogue's address
    case 'ER_NOT_SUPPORTED_AUTH_MODE':
      return 'login_failed';
    case 'ER_BAD_DB_ERROR': // no such database
    case 'ER_DBACCESS_DENIED_ERROR': // no such database or not this user's (MySQL does not tell them apart)
      return 'database_missing';
    default:
      return 'failed';
  }
}

/** MySQL and MariaDB through mysql2: one connection per session, read-only, with statement time-outs. */
export class MysqlSqlDatabases extends SqlDatabases {
  async open(target: SqlTarget, limits: SqlLimits = DEFAULT_SQL_LIMITS): Promise<SqlSession> {
    let connection: mysql.Connection;
    try {
      connection = await mysql.createConnection({
        host: target.address,
        port: target.port,
        user: target.username,
        password: target.password,
        database: target.database,
        connectTimeout: limits.connectTimeoutMs,
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
        multipleStatements: false,
      });
    } catch (error) {
      throw new SqlConnectionError(mysqlFailure(error));
    }
    connection.on('error', () => undefined);
    const session = new MysqlSession(connection, limits);
    try {
      await session.prepare();
    } catch {
      await session.close();
      throw new SqlConnectionError('failed');
    }
    return session;
  }
}

class MysqlSession implements SqlSession {
  private listing?: SqlTable[];

  constructor(
    private readonly connection: mysql.Connection,
    private readonly limits: SqlLimits,
  ) {}

  async prepare(): Promise<void> {
    await this.connection.query('SET SESSION TRANSACTION READ ONLY');
    // MariaDB counts seconds in max_statement_time; MySQL has MAX_EXECUTION_TIME in milliseconds.
    try {
      await this.connection.query(`SET SESSION max_statement_time = ${this.limits.statementTimeoutMs / 1000}`);
    } catch {
      await this.connection.query(`SET SESSION MAX_EXECUTION_TIME = ${Math.floor(this.limits.statementTimeoutMs)}`);
    }
  }

  private readonly run = async (sql: string, values: unknown[] = []): Promise<unknown[][]> => {
    try {
      const [rows] = await this.connection.query({ sql, values, rowsAsArray: true, timeout: this.limits.statementTimeoutMs + 5_000 });
      return rows as unknown[][];
    } catch {
      throw new SqlConnectionError('failed');
    }
  };

  async tables(): Promise<SqlTable[]> {
    if (this.listing) return this.listing;
    const rows = await this.run(
      `SELECT c.TABLE_NAME, c.COLUMN_NAME, c.COLUMN_TYPE
         FROM information_schema.COLUMNS c JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
        WHERE c.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE IN ('BASE TABLE', 'VIEW')
        ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`,
    );
    const tables = new Map<string, SqlTable>();
    for (const [table, column, type] of rows as string[][]) {
      const entry = tables.get(table) ?? { name: table, columns: [] };
      entry.columns.push({ name: column, type });
      tables.set(table, entry);
    }
    this.listing = [...tables.values()];
    return this.listing;
  }

  private async find(name: string): Promise<SqlTable | null> {
    return (await this.tables()).find((t) => t.name === name) ?? null;
  }

  async preview(name: string, rows: number) {
    const table = await this.find(name);
    if (!table) return null;
    const from = dialect.quote(table.name);
    const columns = table.columns.map((c) => `CAST(${dialect.quote(c.name)} AS CHAR)`).join(', ');
    const raw = await this.run(`SELECT ${columns} FROM ${from} LIMIT ${Math.floor(rows)}`);
    const [[total]] = await this.run(`SELECT COUNT(*) FROM ${from}`);
    return { HEADERS: table.columns.map((c) => c.name), RAW: raw.map((row) => row.map((v) => (v === null ? null : String(v)))), TOTAL_ROWS: Number(total) };
  }

  async tableSource(name: string) {
    const table = await this.find(name);
    if (!table) return null;
    return new SqlTableSource(
      dialect,
      dialect.quote(table.name),
      table.columns.map((c) => c.name),
      (sql) => this.run(sql),
    );
  }

  async close(): Promise<void> {
    await this.connection.end().catch(() => this.connection.destroy());
  }
}
