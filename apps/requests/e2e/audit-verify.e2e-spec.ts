import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createMessagingMigration } from '@dc/messaging';
import { openServiceDataSource } from '@dc/persistence';
import { createTestDatabase, describeInfra, ensureServerBuild, startNode, TestDatabase } from '@dc/testing';
import { AuditRepository } from '../src/app/audit/audit.repository';
import { RequestsInitial1764300000000 } from '../src/app/migrations/1764300000000-requests-initial';

/** `npm run audit:verify`'s built entry point (as the e2e suites, against dist/), run as a process on a real trail: intact, then edited in the database. */
describeInfra('audit:verify (real PostgreSQL)', true, () => {
  let db: TestDatabase;
  let requests: DataSource;
  const verify = async () => {
    const run = startNode('audit-verify', 'dist/apps/requests/src/audit-verify.js', { DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
    const code = await run.exited;
    return { code, output: run.lines.join('\n') };
  };

  beforeAll(async () => {
    ensureServerBuild();
    db = await createTestDatabase('dc_audit_verify');
    requests = await openServiceDataSource({
      url: db.url,
      schema: 'requests',
      migrations: [createMessagingMigration('requests'), RequestsInitial1764300000000],
    });
    const audit = new AuditRepository();
    const requestId = randomUUID();
    for (const action of ['created', 'sent', 'review', 'approved', 'download'] as const) {
      await requests.transaction((manager) =>
        audit.append(manager, {
          id: randomUUID(),
          requestId,
          recordId: 'record-1',
          actorId: 'user-1',
          action,
          details: action === 'approved' ? { expiresAt: null } : {},
          occurredAt: new Date(),
        }),
      );
    }
  });
  afterAll(async () => {
    await requests?.destroy();
    await db?.drop();
  });

  it('says the trail is intact, then names the first entry changed in the database and fails', async () => {
    expect(await verify()).toEqual({ code: 0, output: 'The audit trail is intact: 5 entries verified.' });
    const [approved] = await requests.query(`SELECT seq, id FROM requests.audit_log WHERE action = 'approved'`);
    await requests.query(`UPDATE requests.audit_log SET actor_id = 'someone-else' WHERE id = $1`, [approved.id]);
    expect(await verify()).toEqual({
      code: 1,
      output: `The audit trail is broken at entry #4 (${approved.id}): its content does not match its hash (the entry was changed). 3 entries before it are intact.`,
    });
  });
});
