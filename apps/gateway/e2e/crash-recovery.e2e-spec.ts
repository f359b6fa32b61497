import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Client } from 'pg';
import { ensureServerBuild, eventually, freePort, RunningProcess, startNode, waitForHttp } from '@dc/testing';
import { activateAndLogin, register } from './flows';

const PASSWORD = 'correct horse battery';
/** Big enough that its extraction is well under way when the product is killed (CRASH_CSV_MB to change). */
const BIG_CSV_MB = Number(process.env.CRASH_CSV_MB ?? 120);

/** A CSV of about `megabytes` MB whose rows depend on `seed`, so two files never share a checksum. */
async function writeCsv(file: string, megabytes: number, seed: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('id,station,reading,measured_on,comment\n');
  let written = 0;
  for (let row = 0; written < megabytes * 1024 * 1024; row++) {
    const lines: string[] = [];
    for (let i = 0; i < 1000; i++, row++)
      lines.push(
        `${row},station-${(row * 7 + seed) % 997},${((row * 31 + seed) % 10_000) / 100},2026-${String((row % 12) + 1).padStart(2, '0')}-${String((row % 28) + 1).padStart(2, '0')},reading ${seed} of ${row}`,
      );
    const chunk = `${lines.join('\n')}\n`;
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Every file under the storage root, reserved names (partial writes, content-type sidecars) included. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((name) => statSync(path.join(root, name)).isFile())
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

/**
 * kill -9 of the embedded product in the middle of an upload and in the middle of an extraction,
 * then a restart on the same DATA_DIR and database: no record stays Working, no object is left in
 * storage without its record, and the interrupted upload goes through when sent again.
 */
describe('crash recovery of the embedded product (SIGKILL during an upload and during extraction)', () => {
  jest.setTimeout(1_800_000);
  let dataDir: string;
  let port: number;
  let pgPort: number;
  let app: RunningProcess | undefined;
  let token: string;
  const base = () => `http://127.0.0.1:${port}`;
  const storageRoot = () => path.join(dataDir, 'files');

  const start = async () => {
    app = startNode('crash', 'dist/apps/gateway/src/main.js', {
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      PUBLIC_URL: base(),
      LOG_LEVEL: 'info',
      BODY_IDLE_TIMEOUT_MS: '600000',
    });
    await waitForHttp(`${base()}/health/ready`, { process: app, timeoutMs: 300_000 });
  };
  const kill = async () => {
    app!.process.kill('SIGKILL');
    await app!.exited;
  };
  const sql = async <T>(text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: `postgres://postgres:embedded@127.0.0.1:${pgPort}/datacatalogue` });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  };

  /**
   * Sends the files as one multipart upload. With `stopAfterBytes`, the last file is cut short
   * there and the body left open (a client still sending); the promise then never settles.
   */
  const upload = (files: Array<{ name: string; path: string }>, stopAfterBytes?: number): Promise<{ status: number; body: unknown }> => {
    const boundary = `crash-${Date.now()}`;
    const call = request(`${base()}/api/records/`, {
      method: 'POST',
      headers: { authorization: `JWT ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const answer = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      call.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || 'null') }));
      });
      call.on('error', reject);
    });
    void (async () => {
      for (const [index, file] of files.entries()) {
        call.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`);
        const last = index === files.length - 1;
        const content = readFileSync(file.path);
        const sent = last && stopAfterBytes !== undefined ? content.subarray(0, stopAfterBytes) : content;
        if (!call.write(sent)) await once(call, 'drain');
        if (last && stopAfterBytes !== undefined) return;
        call.write('\r\n');
      }
      call.end(`--${boundary}--\r\n`);
    })().catch(() => undefined);
    return answer;
  };

  /**
   * Storage holds exactly the objects of the records' files (with their content-type sidecars) and
   * the relations service's row indexes of those files, nothing half-written, nothing pending.
   */
  const expectStorageMatchesRecords = async () => {
    const files = await sql<{ id: string; storage_key: string | null }>('SELECT id, storage_key FROM catalogue.files');
    const keys = files.flatMap((file) => (file.storage_key ? [file.storage_key] : []));
    const stored = filesUnder(storageRoot());
    expect(stored.filter((name) => name.includes('/.~partial/'))).toEqual([]);
    expect(stored.filter((name) => name.startsWith('catalogue/'))).toEqual(
      keys.flatMap((key) => [key, `${path.posix.dirname(key)}/.~meta-${path.posix.basename(key)}.json`]).sort(),
    );
    // relations/row-index/{file}/{build}/...: builds the relations service knows, of files that exist.
    const builds = await sql<{ file_id: string; build_id: string }>(`SELECT file_id, build_id FROM relations.row_indexes WHERE status = 'ready'`);
    const indexed = new Set(stored.filter((name) => name.startsWith('relations/row-index/')).map((name) => name.split('/').slice(2, 4).join('/')));
    expect(
      [...indexed].filter((build) => !builds.some((b) => `${b.file_id}/${b.build_id}` === build) || !files.some((file) => build.startsWith(`${file.id}/`))),
    ).toEqual([]);
    expect(stored.filter((name) => !name.startsWith('catalogue/') && !name.startsWith('relations/row-index/'))).toEqual([]);
    expect(await sql('SELECT storage_key FROM catalogue.pending_objects')).toEqual([]);
  };
  const fileStatuses = () =>
    sql<{ name: string; extraction_status: string; attempts: number; errors: string[] | null }>(
      `SELECT name, extraction_status, attempts, meta -> 'ERRORS' AS errors FROM catalogue.files ORDER BY created_at`,
    );
  /** No record shows Working: each file's extraction ended (done, or failed with a message). */
  const expectNothingWorking = async (timeoutMs: number) =>
    eventually(async () => {
      const records = (await sql<{ id: string }>('SELECT id FROM catalogue.records')).map((row) => row.id);
      for (const id of records) {
        const details = (await (await fetch(`${base()}/api/records/${id}`, { headers: { authorization: `JWT ${token}` } })).json()) as {
          extraction_status: string | null;
        };
        expect({ id, state: details.extraction_status }).toEqual({ id, state: 'done' });
      }
      const files = await fileStatuses();
      for (const file of files) expect(['done', 'failed']).toContain(file.extraction_status);
      return files;
    }, timeoutMs);

  let small: string;
  let interrupted: string;
  let big: string;

  beforeAll(async () => {
    ensureServerBuild();
    dataDir = mkdtempSync(path.join(tmpdir(), 'dc-crash-'));
    port = await freePort();
    pgPort = await freePort();
    small = path.join(dataDir, '..', `${path.basename(dataDir)}-stations.csv`);
    interrupted = path.join(dataDir, '..', `${path.basename(dataDir)}-readings.csv`);
    big = path.join(dataDir, '..', `${path.basename(dataDir)}-archive.csv`);
    await writeCsv(small, 0.01, 1);
    await writeCsv(interrupted, 20, 2);
    await writeCsv(big, BIG_CSV_MB, 3);
    await start();
    expect((await register(base(), 'survivor', PASSWORD)).status).toBe(201);
    token = await eventually(() => activateAndLogin(base(), path.join(dataDir, 'mail'), 'survivor', PASSWORD));
  }, 600_000);

  afterAll(async () => {
    await app?.stop('SIGTERM');
    for (const file of [dataDir, small, interrupted, big]) if (file) rmSync(file, { recursive: true, force: true });
  });

  it('leaves no object behind from an upload killed mid-way, and takes the same upload when it is sent again', async () => {
    const files = [
      { name: 'stations.csv', path: small },
      { name: 'readings.csv', path: interrupted },
    ];
    // The first file is stored whole, the second is still arriving when the product dies.
    void upload(files, 5 * 1024 * 1024).catch(() => undefined);
    await eventually(async () => {
      expect(await sql('SELECT reason FROM catalogue.pending_objects')).toEqual([{ reason: 'upload' }, { reason: 'upload' }]);
      const stored = filesUnder(storageRoot());
      expect(stored.filter((name) => !name.includes('/.~'))).toHaveLength(1);
      expect(stored.filter((name) => name.includes('/.~partial/'))).not.toEqual([]);
    }, 120_000);
    await kill();
    expect(await sql('SELECT id FROM catalogue.records')).toEqual([]);

    await start();
    await expectStorageMatchesRecords();
    expect(filesUnder(storageRoot())).toEqual([]);

    const retried = await upload(files);
    expect(retried.status).toBe(201);
    expect((retried.body as Array<{ name: string }>).map((record) => record.name).sort()).toEqual(['readings.csv', 'stations.csv']);
    const ended = await expectNothingWorking(600_000);
    expect(ended.map((file) => [file.name, file.extraction_status])).toEqual([
      ['stations.csv', 'done'],
      ['readings.csv', 'done'],
    ]);
    await expectStorageMatchesRecords();
  });

  it('refuses to start a second product on the DATA_DIR a running one uses, and leaves that one running', async () => {
    const second = startNode('second', 'dist/apps/gateway/src/main.js', {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: 'info',
    });
    expect(await second.exited).toBe(1);
    expect(second.lines.join('\n')).toContain('is in use by a running product');
    expect((await fetch(`${base()}/health/ready`)).status).toBe(200);
  });

  it('finishes, after a restart, an extraction killed mid-way, so the record never stays Working', async () => {
    // The relations service's row indexes of the earlier files are built (none is being written when the product dies).
    await eventually(async () => {
      const done = await sql<{ id: string }>(`SELECT id FROM catalogue.files WHERE extraction_status = 'done'`);
      const built = await sql<{ file_id: string }>(`SELECT file_id FROM relations.row_indexes WHERE status = 'ready'`);
      expect(done.filter((file) => !built.some((b) => b.file_id === file.id))).toEqual([]);
    }, 300_000);
    const sent = await upload([{ name: 'archive.csv', path: big }]);
    expect(sent.status).toBe(201);
    const recordId = (sent.body as { id: string }).id;
    await eventually(
      async () =>
        expect(await sql(`SELECT extraction_status FROM catalogue.files WHERE record_id = $1`, [recordId])).toEqual([{ extraction_status: 'running' }]),
      120_000,
    );
    await kill();
    const [killed] = await sql<{ extraction_status: string; attempts: number }>(
      'SELECT extraction_status, attempts FROM catalogue.files WHERE record_id = $1',
      [recordId],
    );
    expect(killed).toEqual({ extraction_status: 'running', attempts: 1 });

    await start();
    const ended = await expectNothingWorking(1_200_000);
    const archive = ended.find((file) => file.name === 'archive.csv')!;
    // Taken up again by the restarted product (a second attempt), and extracted.
    expect(archive).toMatchObject({ extraction_status: 'done', attempts: 2, errors: [] });
    await expectStorageMatchesRecords();
  });
});
