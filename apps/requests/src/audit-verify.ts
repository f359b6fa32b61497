import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { createMessagingMigration } from '@dc/messaging';
import { openServiceDataSource } from '@dc/persistence';
import { loadConfigOrExit, scriptDatabase } from '@dc/platform';
import { AuditRepository } from './app/audit/audit.repository';
import { RequestsInitial1764300000000 } from './app/migrations/1764300000000-requests-initial';

/**
 * `npm run audit:verify`: recomputes the hash chain of the requests audit trail, entry by entry, and
 * names the first entry that was changed, removed or inserted (exit code 1), or says it is intact
 * (exit code 0). Reads the same configuration as the services (DATABASE_URL, or the embedded
 * PostgreSQL under DATA_DIR) and may run while the product runs.
 */
async function main() {
  const config = loadConfigOrExit();
  const database = await scriptDatabase(config);
  const requests = await openServiceDataSource({
    url: database.url,
    schema: 'requests',
    migrations: [createMessagingMigration('requests'), RequestsInitial1764300000000],
    applicationName: 'dc-audit-verify',
  });
  try {
    const { checked, broken } = await new AuditRepository().verify(requests.manager);
    if (broken) {
      console.error(`The audit trail is broken at entry #${broken.seq} (${broken.id}): ${broken.reason}. ${checked} entries before it are intact.`);
      process.exitCode = 1;
    } else {
      console.log(`The audit trail is intact: ${checked} ${checked === 1 ? 'entry' : 'entries'} verified.`);
    }
  } finally {
    await requests.destroy();
    await database.stop?.();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
