import { MigrationInterface, QueryRunner } from 'typeorm';
import { openServiceDataSource } from './index';
import { createTestDatabase, describeInfra, isPostgresReachable, TestDatabase } from '@dc/testing';

class CreateThings1700000000000 implements MigrationInterface {
  name = 'CreateThings1700000000000';
  async up(runner: QueryRunner) {
    await runner.query('CREATE TABLE "alpha"."things" (id serial primary key, name text not null)');
  }
  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE "alpha"."things"');
  }
}

let reachable = false;
beforeAll(async () => {
  reachable = await isPostgresReachable();
});

describeInfra('service data sources on PostgreSQL', true, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    if (!reachable) throw new Error('PostgreSQL at 127.0.0.1:5432 is not reachable');
    db = await createTestDatabase('dc_persistence');
  });
  afterAll(() => db?.drop());

  it('creates the schema, applies migrations once, and keeps them applied across reopenings', async () => {
    const first = await openServiceDataSource({ url: db.url, schema: 'alpha', migrations: [CreateThings1700000000000] });
    await first.query('INSERT INTO alpha.things (name) VALUES ($1)', ['one']);
    await first.destroy();
    const second = await openServiceDataSource({ url: db.url, schema: 'alpha', migrations: [CreateThings1700000000000] });
    const rows = await second.query('SELECT name FROM alpha.things');
    const applied = await second.query('SELECT name FROM alpha.migrations');
    await second.destroy();
    expect(rows).toEqual([{ name: 'one' }]);
    expect(applied).toEqual([{ name: 'CreateThings1700000000000' }]);
  });

  it('keeps services apart: another schema has its own migrations table', async () => {
    const beta = await openServiceDataSource({ url: db.url, schema: 'beta' });
    const tables = await beta.query("SELECT table_schema FROM information_schema.tables WHERE table_name = 'migrations' ORDER BY 1");
    await beta.destroy();
    expect(tables.map((t: { table_schema: string }) => t.table_schema)).toEqual(['alpha', 'beta']);
  });

  it('refuses an unsafe schema name', async () => {
    await expect(openServiceDataSource({ url: db.url, schema: 'x"; drop' })).rejects.toThrow('Invalid schema name');
  });
});
