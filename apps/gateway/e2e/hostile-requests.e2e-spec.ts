import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, describeInfra, ensureServerBuild, eventually, freePort, RunningProcess, startNode, TestDatabase, waitForHttp } from '@dc/testing';
import { activateAndLogin, register } from './flows';
import { INTERNAL_PATH_VARIANTS, multipart, Part, rawRequest, RawAnswer } from './raw-http';
import { FuzzRequest, fuzzRoutes, HOSTILE_PAGES, pagingProbes, RequestFuzzer } from './route-fuzz';

const MiB = 1024 * 1024;
/** The product's upload limit in this suite: small, so going past it is cheap. */
const MAX_UPLOAD_BYTES = 16 * MiB;

/** FUZZ_SEED reproduces a run; FUZZ_REQUESTS changes its length (the default runs in about a minute). */
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 30000);

const csv = (rows: number) => `id,name\n${Array.from({ length: rows }, (_, i) => `${i},row ${i}`).join('\n')}\n`;
const files = (count: number, name = 'file'): Part[] =>
  Array.from({ length: count }, (_, i) => ({ name, filename: `f${i}.csv`, type: 'text/csv', data: csv(2) }));

/**
 * The product as `npm start` runs it (the built gateway, embedded mode: every service in one
 * process), attacked as anyone who can sign up could: no request may take the process down. After
 * each bad request the process must still be running and answering, and nothing half-written may
 * be left in its file store.
 */
describeInfra('no request takes the product down (embedded mode, the built gateway)', true, () => {
  let db: TestDatabase;
  let dataDir: string;
  let port: number;
  let product: RunningProcess;
  let auth: { authorization: string };
  const base = () => `http://127.0.0.1:${port}`;

  /** Every file the store holds, temporary and sidecar files included. */
  const storedFiles = (): string[] => {
    const root = path.join(dataDir, 'files');
    try {
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name));
    } catch {
      return [];
    }
  };

  /**
   * The process has not exited and answers a plain call, and its error net caught nothing: an error
   * it contained (see installProcessErrorPolicy) is a bug even though the process survived it.
   */
  const expectAlive = async () => {
    expect(product.process.exitCode).toBeNull();
    expect(product.process.signalCode).toBeNull();
    const live = await fetch(`${base()}/health/live`);
    expect(live.status).toBe(200);
    expect(product.lines.filter((line) => line.includes('uncaught error contained'))).toEqual([]);
  };

  beforeAll(async () => {
    ensureServerBuild();
    db = await createTestDatabase('dc_hostile');
    dataDir = mkdtempSync(path.join(tmpdir(), 'dc-hostile-'));
    port = await freePort();
    product = startNode('embedded', 'dist/apps/gateway/src/main.js', {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES),
      SERVE_WEB: 'false',
      LOG_LEVEL: 'info',
    });
    await waitForHttp(`${base()}/health/ready`, { process: product, timeoutMs: 90_000 });
    expect((await register(base(), 'mallory', 'correct horse battery')).status).toBe(201);
    auth = { authorization: `JWT ${await activateAndLogin(base(), path.join(dataDir, 'mail'), 'mallory', 'correct horse battery')}` };
  }, 120_000);

  afterAll(async () => {
    await product?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await db?.drop();
  });

  const upload = (body: { contentType: string; body: Buffer }, extra: Partial<Parameters<typeof rawRequest>[1]> = {}) =>
    rawRequest(port, { path: '/api/records/', headers: { ...auth, 'content-type': body.contentType }, body: [body.body], ...extra });

  const json = (answer: RawAnswer | null) => (answer ? (JSON.parse(answer.body) as unknown) : null);

  describe('bad uploads: each is refused with a 4xx, the process keeps answering, nothing is left in the store', () => {
    afterEach(async () => {
      await expectAlive();
      // Clean-up after an interrupted upload finishes shortly after the answer.
      await eventually(async () => expect(storedFiles()).toEqual([]), 10_000);
    });

    it('200 file parts: 400, too many files', async () => {
      const answer = await upload(multipart(files(200)));
      expect(answer?.status).toBe(400);
      expect(json(answer)).toEqual({ detail: 'Too many files in one upload.' });
    });

    it('10,000 parts: 400', async () => {
      const parts: Part[] = Array.from({ length: 10_000 }, (_, i) =>
        i % 2 ? { name: `field${i}`, data: 'x' } : { name: 'file', filename: `f${i}.csv`, type: 'text/csv', data: csv(1) },
      );
      const answer = await upload(multipart(parts));
      expect(answer?.status).toBe(400);
      expect(json(answer)).toEqual({ detail: expect.stringMatching(/^Too many (files in one upload|parts in the form|fields in the form)\.$/) });
    });

    it('a file part with no file name: 400 naming the field, not a record without its file', async () => {
      const answer = await upload(
        multipart([
          { name: 'name', data: 'Has a name' },
          { name: 'file', type: 'text/csv', data: csv(3) },
        ]),
      );
      expect(answer?.status).toBe(400);
      expect(json(answer)).toEqual({ file: [expect.stringMatching(/file name/)] });
    });

    it('parts after the size limit: 413, and the files stored before it are removed', async () => {
      const big = Buffer.alloc(9 * MiB, 'a');
      const answer = await upload(
        multipart([
          { name: 'file', filename: 'one.txt', type: 'text/plain', data: big },
          { name: 'file', filename: 'two.txt', type: 'text/plain', data: big },
          ...files(3),
        ]),
      );
      expect(answer?.status).toBe(413);
      expect(json(answer)).toEqual({ detail: `The upload is too large: files may total at most ${MAX_UPLOAD_BYTES} bytes.` });
    });

    it('a truncated body (no closing boundary, mid-file): 400', async () => {
      const { contentType, body } = multipart([...files(2), { name: 'file', filename: 'cut.csv', type: 'text/csv', data: csv(5000) }], undefined, false);
      const answer = await upload({ contentType, body: body.subarray(0, body.length - 1000) });
      expect(answer?.status).toBe(400);
    });

    it('a client that disconnects mid-upload: the process keeps going and removes what it stored', async () => {
      const { contentType, body } = multipart([...files(2), { name: 'file', filename: 'half.csv', type: 'text/csv', data: Buffer.alloc(4 * MiB, 'b') }]);
      const answer = await rawRequest(port, {
        path: '/api/records/',
        headers: { ...auth, 'content-type': contentType, 'content-length': String(body.length) },
        body: [body.subarray(0, 2 * MiB)],
        then: 'destroy',
      });
      expect(answer).toBeNull();
    });

    it('two file fields with different names (the second while the first is being stored): 400', async () => {
      const answer = await upload(
        multipart([
          { name: 'file', filename: 'big.csv', type: 'text/csv', data: Buffer.alloc(4 * MiB, 'c') },
          { name: 'attachment', filename: 'other.csv', type: 'text/csv', data: csv(3) },
          ...files(2),
        ]),
      );
      expect(answer?.status).toBe(400);
      expect(json(answer)).toEqual({ attachment: ['Files must be sent in "file" parts.'] });
    });

    it('a 20 MB text field: 400 naming the field', async () => {
      const answer = await upload(multipart([{ name: 'description', data: Buffer.alloc(20 * MiB, 'd') }, ...files(1)]));
      expect(answer?.status).toBe(400);
      expect(json(answer)).toEqual({ description: ['This value is too long.'] });
    });

    it('a Content-Length of 100 GB with a short body: 413 before reading', async () => {
      const { contentType, body } = multipart(files(1));
      const answer = await rawRequest(port, {
        path: '/api/records/',
        headers: { ...auth, 'content-type': contentType, 'content-length': String(100 * 1024 ** 3) },
        body: [body],
        timeoutMs: 20_000,
      });
      expect(answer?.status).toBe(413);
    });

    it('a body that ends before its Content-Length, then silence: 400 once the client gives up', async () => {
      const { contentType, body } = multipart(files(3));
      const answer = await rawRequest(port, {
        path: '/api/records/',
        headers: { ...auth, 'content-type': contentType, 'content-length': String(body.length + 5000) },
        body: [body],
        then: 'destroy',
      });
      expect(answer).toBeNull();
    });
  });

  it('does not answer internal routes on the public port, however the path is written (the token check runs in-process here)', async () => {
    const answers = [];
    for (const variant of INTERNAL_PATH_VARIANTS) {
      const answer = await rawRequest(port, { method: 'GET', path: variant, headers: auth });
      answers.push({ variant, status: answer?.status });
    }
    expect(answers).toEqual(INTERNAL_PATH_VARIANTS.map((variant) => ({ variant, status: 404 })));
    // The check it would have answered still applies to every call, in the same process.
    expect((await fetch(`${base()}/api/account/user-account/`, { headers: auth })).status).toBe(200);
  });

  it('still indexes a good upload afterwards', async () => {
    const answer = await upload(multipart([{ name: 'file', filename: 'fine.csv', type: 'text/csv', data: csv(10) }]));
    expect(answer?.status).toBe(201);
    expect(json(answer)).toMatchObject({ name: 'fine.csv', size: csv(10).length });
  });

  it('answers every list called with a huge or silly page or page size without a 5xx; the connections list with an empty page', async () => {
    const openApi = (await (await fetch(`${base()}/api/docs/openapi.json`)).json()) as Parameters<typeof pagingProbes>[0];
    const probes = pagingProbes(openApi, { authorization: auth.authorization, knownIds: [] });
    expect(probes.map((probe) => probe.path)).toEqual(
      expect.arrayContaining([
        '/api/connections/list-connections/?page=99999999999999999999999',
        '/api/records/?page=99999999999999999999999',
        '/api/account/?page=99999999999999999999999',
        '/api/policies/?page=99999999999999999999999',
      ]),
    );
    const failures: string[] = [];
    for (const probe of probes) {
      const answer = await send(port, probe, false);
      if (answer.status >= 500) failures.push(`${probe.path} -> ${answer.status} ${answer.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    for (const page of HOSTILE_PAGES.slice(0, 4)) {
      const answer = await fetch(`${base()}/api/connections/list-connections/?page=${page}`, { headers: auth });
      expect([page, answer.status, await answer.json()]).toEqual([
        page,
        200,
        { count: 0, next: null, previous: expect.stringContaining('page=1'), results: [] },
      ]);
    }
    await expectAlive();
  });

  it(`survives a seeded run of ${FUZZ_REQUESTS} hostile requests over every route with no 5xx (FUZZ_SEED=${FUZZ_SEED})`, async () => {
    // Things that exist, so that some calls get past "not found" into the code behind it.
    const record = JSON.parse((await upload(multipart([{ name: 'file', filename: 'known.csv', type: 'text/csv', data: csv(5) }])))!.body) as {
      id: string;
      FILES: Array<{ id: string }>;
      organisation: { id: string };
    };
    const openApi = (await (await fetch(`${base()}/api/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const routes = fuzzRoutes(openApi);
    // The document names the services' routes (a sanity check that the list is not empty by mistake).
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/records', '/api/records/{id}', '/api/register', '/api/account/{id}', '/api/recordsannon']),
    );
    const fuzzer = new RequestFuzzer(FUZZ_SEED, { authorization: auth.authorization, knownIds: [record.id, record.FILES[0].id, record.organisation.id] });
    const requests = Array.from({ length: FUZZ_REQUESTS }, (_, i) => fuzzer.next(routes[i % routes.length]));

    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const call = requests[next++];
        const answer = await send(port, call, agent).catch((error: Error) => ({ status: 0, body: error.message }));
        if (answer.status >= 500 || answer.status === 0)
          failures.push(
            `${call.method} ${call.path.slice(0, 200)} [${call.headers['content-type'] ?? ''}: ${(call.body ?? Buffer.alloc(0)).toString('utf8').slice(0, 300)}] -> ${answer.status} ${answer.body.slice(0, 200)}`,
          );
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    agent.destroy();
    expect({ seed: FUZZ_SEED, failures }).toEqual({ seed: FUZZ_SEED, failures: [] });
    await expectAlive();
  }, 300_000);
});

/**
 * One fuzzed call over node:http (fetch refuses bodies on GET and some of the paths). A kept-alive
 * socket the server closed for being idle just as the call went out is retried once on a new
 * socket (Node's documented reusedSocket case); any other failure to answer is reported.
 */
function send(port: number, call: FuzzRequest, agent: Agent | false, retried = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: call.method,
        path: call.path,
        agent,
        headers: { ...call.headers, ...(call.body ? { 'content-length': String(call.body.length) } : {}) },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && !retried && (error.code === 'ECONNRESET' || error.message === 'socket hang up')) resolve(send(port, call, false, true));
      else reject(error);
    });
    req.end(call.body);
  });
}
