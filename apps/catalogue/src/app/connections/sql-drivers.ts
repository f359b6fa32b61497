import { MysqlSqlDatabases } from './mysql-sql-database';
import { PostgresSqlDatabases } from './postgres-sql-database';
import { SqlDatabases, type SqlLimits, type SqlSession, type SqlTarget } from './sql-database';

/** The adapter for the connection's sqltype. */
export class DriverSqlDatabases extends SqlDatabases {
  private readonly mysql = new MysqlSqlDatabases();
  private readonly postgres = new PostgresSqlDatabases();

  open(target: SqlTarget, limits?: SqlLimits): Promise<SqlSession> {
    return target.sqltype === 'mysql' ? this.mysql.open(target, limits) : this.postgres.open(target, limits);
  }
}
