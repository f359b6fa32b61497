import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

/** The real MariaDB (or MySQL) server of the development and CI machines: root without a password. */
export const TEST_MYSQL = {
  host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_MYSQL_PORT ?? 3306),
  user: process.env.TEST_MYSQL_USER ?? 'root',
  password: process.env.TEST_MYSQL_PASSWORD ?? '',
};

export async function isMysqlReachable(): Promise<boolean> {
  try {
    const connection = await mysql.createConnection({ ...TEST_MYSQL, connectTimeout: 2000 });
    await connection.query('SELECT 1');
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

export interface TestMysqlDatabase {
  name: string;
  /** A connection to the database (multiple statements allowed), for loading test data. */
  connection: mysql.Connection;
  drop(): Promise<void>;
}

/** Creates a fresh, uniquely named MariaDB database so suites running in parallel never share state. */
export async function createTestMysqlDatabase(prefix = 'dc_test'): Promise<TestMysqlDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`.toLowerCase();
  const admin = await mysql.createConnection(TEST_MYSQL);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await admin.end();
  const connection = await mysql.createConnection({ ...TEST_MYSQL, database: name, multipleStatements: true });
  return {
    name,
    connection,
    async drop() {
      await connection.end().catch(() => undefined);
      const dropper = await mysql.createConnection(TEST_MYSQL);
      await dropper.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await dropper.end();
    },
  };
}
