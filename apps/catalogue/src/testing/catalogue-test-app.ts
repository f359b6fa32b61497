import type { Type } from '@nestjs/common';
import { createEvent, type EventEnvelope, RequestUpdated, type RequestSnapshot } from '@dc/contracts';
import { DATASETS, directoryEvents, ServiceHarness, TEST_ENCRYPTION_KEY, TEST_JWT_SECRET, testCaller, type TestCaller } from '@dc/testing';
import { CatalogueModule } from '../app/catalogue.module';

export { DATASETS, TEST_ENCRYPTION_KEY, TEST_JWT_SECRET, testCaller as caller, type TestCaller as Caller };

/** Test-only: the catalogue service as the real process builds it (createApp), on a test database. */
export class CatalogueTestApp extends ServiceHarness {
  /**
   * dataDir: a temporary DATA_DIR (fs storage) unless one is given, e.g. to restart on the same files.
   * modules: extra (global) modules, e.g. to provide settings the catalogue takes as optional.
   * env: more configuration, e.g. PUBLIC_URL, s3StorageEnv(...) for the S3 driver, ALLOWED_PRIVATE_ENDPOINTS for loopback databases and s3rver.
   */
  static async start(
    databaseUrl: string,
    options: { dataDir?: string; maxUploadBytes?: number; modules?: Type[]; env?: Record<string, string> } = {},
  ): Promise<CatalogueTestApp> {
    const env = { ...(options.maxUploadBytes ? { MAX_UPLOAD_BYTES: String(options.maxUploadBytes) } : {}), ...options.env };
    const modules = [CatalogueModule, ...(options.modules ?? [])];
    return new CatalogueTestApp(await ServiceHarness.boot({ service: 'catalogue', modules, databaseUrl, env, dataDir: options.dataDir }));
  }

  /** The events in the catalogue's outbox about one aggregate, oldest first, validated. */
  events(key: string): Promise<EventEnvelope[]> {
    return this.outbox('catalogue', key);
  }

  /** Publishes identity's events for these people and organisations and waits until the catalogue applied them. */
  async feedDirectory(people: TestCaller[], organisations: Record<string, string>): Promise<void> {
    await this.publish(...directoryEvents(people, organisations));
    const ids = people.map((p) => p.id);
    const orgIds = Object.keys(organisations);
    await this.until(
      'SELECT 1 WHERE (SELECT count(*) FROM catalogue.users WHERE id = ANY($1)) = $2 AND (SELECT count(*) FROM catalogue.organisations WHERE id = ANY($3)) = $4',
      [ids, ids.length, orgIds, orgIds.length],
    );
  }

  /** Publishes the requests service's request.updated for each state and waits until the grant projection holds it. */
  async applyRequests(...requests: RequestSnapshot[]): Promise<void> {
    await this.publish(...requests.map((r) => createEvent(RequestUpdated, r.requestId, r)));
    for (const request of requests) {
      await this.until('SELECT 1 FROM catalogue.request_grants WHERE request_id = $1 AND version >= $2', [request.requestId, request.version]);
    }
  }
}
