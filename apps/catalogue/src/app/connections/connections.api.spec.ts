import { randomUUID } from 'node:crypto';
import { bidiControlMessage } from '@dc/contracts';
import path from 'node:path';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { createTestDatabase, createTestMysqlDatabase, describeInfra, eventually, TEST_MYSQL, type TestDatabase, type TestMysqlDatabase } from '@dc/testing';
import { caller, CatalogueTestApp, DATASETS } from '../../testing/catalogue-test-app';
import { loadCsvIntoMysql, loadCsvIntoPostgres, readDatasetCsv } from '../../testing/sql-fixtures';

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);
const colleague = caller('colleague', org, [1, 2, 3]);
const stranger = caller('stranger', randomUUID(), [1, 2, 3]);
const LINKAGE_KEY = Buffer.alloc(32, 3).toString('base64url');
const MARIADB_PASSWORD = 'catalogue reader 7';

describeInfra('SQL connections API (real PostgreSQL for the catalogue, real MariaDB and PostgreSQL as customer databases)', true, () => {
  jest.setTimeout(120_000);
  let db: TestDatabase;
  let catalogue: CatalogueTestApp;
  let customerMaria: TestMysqlDatabase;
  let customerPg: TestDatabase;
  const mariaUser = `dc_reader_${randomUUID().slice(0, 8)}`;

  const http = () => catalogue.http();
  const as = async (who: typeof owner) => catalogue.auth(who);
  let maria: Record<string, unknown>;
  let postgres: Record<string, unknown>;
  /** A loopback port nothing listens on, and one whose listener never answers. */
  let closedPort: number;
  let silentPort: number;
  let silent: Server;
  const held: Socket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('dc_catalogue_connections');
    // The customer databases are on loopback: the operator allows it, as README says.
    // 10.255.255.1 stands for an allowed address that does not answer.
    catalogue = await CatalogueTestApp.start(db.url, { env: { ALLOWED_PRIVATE_ENDPOINTS: '127.0.0.1, 10.255.255.1' } });
    silent = createServer((socket) => held.push(socket.on('error', () => undefined)));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await catalogue.feedDirectory([owner, colleague, stranger], { [org]: 'Acme', [stranger.organisationId]: 'Other' });
    customerMaria = await createTestMysqlDatabase('dc_customer');
    await loadCsvIntoMysql(customerMaria.connection, 'gdp', 'csv/gdp.csv');
    await loadCsvIntoMysql(customerMaria.connection, 'sp500', 'csv/sp500-constituents.csv');
    // A user of its own with a password, who may only read this database.
    await customerMaria.connection.query(
      `CREATE USER '${mariaUser}'@'%' IDENTIFIED BY '${MARIADB_PASSWORD}'; GRANT SELECT ON \`${customerMaria.name}\`.* TO '${mariaUser}'@'%'`,
    );
    customerPg = await createTestDatabase('dc_customer');
    const client = new Client({ connectionString: customerPg.url });
    await client.connect();
    await loadCsvIntoPostgres(client, 'co2', 'csv/co2-annmean-gl.csv');
    await client.end();
    maria = { sqltype: 'mysql', host: TEST_MYSQL.host, port: TEST_MYSQL.port, name: customerMaria.name, username: mariaUser, password: MARIADB_PASSWORD };
    const pgUrl = new URL(customerPg.url);
    postgres = { sqltype: 'postgresql', host: pgUrl.hostname, name: customerPg.name, user: pgUrl.username, password: '' };
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    await customerMaria?.connection.query(`DROP USER IF EXISTS '${mariaUser}'@'%'`).catch(() => undefined);
    await customerMaria?.drop();
    await customerPg?.drop();
    await catalogue?.close();
    await db?.drop();
  });

  it('tests a connection: pass for real MariaDB and PostgreSQL', async () => {
    for (const body of [maria, postgres]) {
      const response = await http()
        .post('/api/connections/test-connection/')
        .set(await as(owner))
        .send(body);
      expect([response.status, response.body]).toEqual([200, { pass: true }]);
    }
  });

  it('says what failed: wrong port, wrong login, missing database, unknown host, each in words a user can act on', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ ...maria, port: closedPort }, 'refused', new RegExp(`refused the connection on port ${closedPort}: nothing listens there`)],
      [{ ...postgres, port: closedPort }, 'refused', /PostgreSQL usually listens on 5432/],
      [{ ...maria, password: 'wrong' }, 'login_failed', /check the username and the password/],
      [{ ...maria, username: 'nobody' }, 'login_failed', /check the username and the password/],
      [{ ...postgres, user: 'nobody' }, 'login_failed', /check the username and the password/],
      [{ ...maria, name: 'no_such_database' }, 'database_missing', /no database named no_such_database/],
      [{ ...postgres, name: 'no_such_database' }, 'database_missing', /no database named no_such_database/],
      [{ ...maria, host: 'no-such-host.invalid' }, 'not_found', /No address was found for the host no-such-host\.invalid/],
    ];
    const headers = await as(owner);
    for (const [body, reason, detail] of cases) {
      const response = await http().post('/api/connections/test-connection').set(headers).send(body);
      expect([body, response.status, response.body]).toEqual([body, 200, { pass: false, reason, detail: expect.stringMatching(detail) }]);
    }
    // Saving says the same after the spec's words.
    const refused = await http()
      .post('/api/connections/create-connection/')
      .set(headers)
      .send({ ...maria, password: 'wrong' });
    expect([refused.status, refused.body]).toEqual([
      400,
      { detail: 'Connecting to the database failed. The database refused the login: check the username and the password.', reason: 'login_failed' },
    ]);
  });

  it('gives every address the operator does not allow one answer, before connecting, whatever listens there', async () => {
    const headers = await as(owner);
    const notAllowed = ['10.255.255.2', '169.254.169.254', '192.168.0.1', '127.0.0.2', '::1', 'metadata.google.internal.'];
    const bodies = new Set<string>();
    for (const host of notAllowed) {
      // MariaDB really listens on 127.0.0.2 and ::1 (loopback): still not_allowed, as for the rest.
      const response = await http()
        .post('/api/connections/test-connection/')
        .set(headers)
        .send({ ...maria, host });
      expect([host, response.status, response.body.pass, response.body.reason]).toEqual([host, 200, false, expect.stringMatching(/^not_(allowed|found)$/)]);
      if (response.body.reason === 'not_allowed') bodies.add(JSON.stringify(response.body));
    }
    expect([...bodies]).toEqual([
      JSON.stringify({
        pass: false,
        reason: 'not_allowed',
        detail:
          'The catalogue may not connect to this address: it connects only to public addresses and to those the operator lists in ALLOWED_PRIVATE_ENDPOINTS. Ask your operator to allow it.',
      }),
    ]);
    const saved = await http()
      .post('/api/connections/create-connection/')
      .set(headers)
      .send({ ...postgres, host: '10.255.255.2' });
    expect([saved.status, saved.body.reason]).toEqual([400, 'not_allowed']);
  });

  it('stops waiting for a host that does not answer after the documented 5 s, and says so', async () => {
    const headers = await as(owner);
    // A listener that accepts and never says a word (a firewall that drops, a wrong service), and an
    // allowed address nothing answers from (no route, or dropped on the way).
    const cases = [
      { ...maria, port: silentPort },
      { ...postgres, port: silentPort },
      { ...maria, host: '10.255.255.1' },
    ];
    const answers = await Promise.all(cases.map((body) => http().post('/api/connections/test-connection/').set(headers).send(body)));
    expect(answers.map((a) => [a.status, a.body.pass])).toEqual(cases.map(() => [200, false]));
    expect(answers[0].body).toEqual({ pass: false, reason: 'timeout', detail: expect.stringContaining(`did not answer on port ${silentPort} within 5 s`) });
    expect(answers[1].body.reason).toBe('timeout');
    // Depending on the network, nothing answers at all (timeout) or a router says there is no way there.
    expect(['timeout', 'unreachable']).toContain(answers[2].body.reason);
  });

  it('refuses incomplete or bad forms with field errors', async () => {
    const response = await http()
      .post('/api/connections/test-connection/')
      .set(await as(owner))
      .send({ sqltype: 'oracle', host: 'a b', port: 70000 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      sqltype: ['Select mysql or postgresql.'],
      host: ['Enter a host name or an IP address.'],
      port: ['Enter a port from 1 to 65535.'],
      name: ['This field is required.'],
      username: ['This field is required.'],
    });
    expect((await http().post('/api/connections/test-connection/').send(maria)).status).toBe(401);
  });

  it('refuses bidi controls (U+202E and the like) in the database name and in the name of the record a table becomes', async () => {
    const saved = await http()
      .post('/api/connections/create-connection/')
      .set(await as(owner))
      .send({ ...maria, name: 'sales\u202elx' });
    expect([saved.status, saved.body]).toEqual([400, { name: [bidiControlMessage('\u202e')] }]);
    const record = await http()
      .post('/api/connections/create-metadata/')
      .set(await as(owner))
      .send({ connectionId: randomUUID(), objectName: 'gdp', recordName: 'GDP\u2066 by country' });
    expect([record.status, record.body]).toEqual([400, { recordName: [bidiControlMessage('\u2066')] }]);
  });

  it('saves a connection after a passed test; lists, reads and uses it; never answers or stores the password in clear', async () => {
    const refused = await http()
      .post('/api/connections/create-connection/')
      .set(await as(owner))
      .send({ ...maria, password: 'wrong' });
    expect([refused.status, refused.body.reason]).toEqual([400, 'login_failed']);

    const created = await http()
      .post('/api/connections/create-connection/')
      .set(await as(owner))
      .send(maria);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      type: 'sql',
      name: customerMaria.name,
      sqltype: 'mysql',
      host: '127.0.0.1',
      port: 3306,
      username: mariaUser,
      user: mariaUser,
      date_created: expect.any(String),
    });
    const pg = await http()
      .post('/api/connections/create-connection')
      .set(await as(owner))
      .send(postgres);
    expect(pg.status).toBe(201);
    expect(pg.body.port).toBe(5432); // the spec's default port

    const list = await http()
      .get('/api/connections/list-connections')
      .set(await as(owner));
    expect(list.body).toMatchObject({ count: 2, next: null, previous: null, results: [created.body, pg.body] });
    expect(
      (
        await http()
          .get(`/api/connections/${created.body.id}/get-connection/`)
          .set(await as(owner))
      ).body,
    ).toEqual(created.body);
    const stored = await catalogue.sql<Record<string, string>>('SELECT * FROM catalogue.connections');
    expect(JSON.stringify(stored)).not.toContain(MARIADB_PASSWORD);
    expect(stored[0].sealed_password).toMatch(/^v1\./);

    const objects = await http()
      .get(`/api/connections/${created.body.id}/list-objects/`)
      .set(await as(owner));
    expect(objects.status).toBe(200);
    expect(objects.body.results.map((t: { name: string }) => t.name)).toEqual(['gdp', 'sp500']);
    expect(objects.body.results[0].columns).toEqual([
      { name: 'Country Name', type: 'text' },
      { name: 'Country Code', type: 'text' },
      { name: 'Year', type: 'bigint(20)' },
      { name: 'Value', type: 'text' }, // some of its values have more digits than a double keeps
    ]);

    const gdp = readDatasetCsv('csv/gdp.csv');
    const object = await http()
      .post('/api/connections/get-object/')
      .set(await as(owner))
      .send({ connectionId: created.body.id, objectName: 'gdp', rowsPerPage: 10 });
    expect(object.status).toBe(200);
    expect(object.body).toEqual({ HEADERS: gdp.header, RAW: gdp.rows.slice(0, 10), TOTAL_ROWS: gdp.rows.length });
    const missing = await http()
      .post('/api/connections/get-object/')
      .set(await as(owner))
      .send({ connectionId: created.body.id, objectName: 'gdp; DROP TABLE sp500' });
    expect([missing.status, missing.body]).toEqual([404, { detail: 'This database has no such table.' }]);
    for (const response of [created, pg, list, object, objects]) expect(JSON.stringify(response.body)).not.toContain(MARIADB_PASSWORD);
  });

  it('answers a huge page with an empty page and a silly one with the first, as every paged list does (never a 500)', async () => {
    const headers = await as(owner);
    for (const page of ['99999999999999999999999', '9'.repeat(400), '1000001']) {
      const response = await http().get(`/api/connections/list-connections/?page=${page}`).set(headers);
      expect([page, response.status, response.body]).toEqual([page, 200, { count: 2, next: null, previous: expect.stringContaining('page=1&'), results: [] }]);
    }
    for (const page of ['0', '-1', 'abc', '', '1e309']) {
      const response = await http().get(`/api/connections/list-connections/?page=${page}`).set(headers);
      expect([page, response.status, response.body]).toMatchObject([page, 200, { count: 2, previous: null, results: [{}, {}] }]);
    }
  });

  it('indexes a table: META computed by the database equals the upload of the same CSV, with a hashed, a fuzzy hashed and a masked column', async () => {
    const [connection] = (
      await http()
        .get('/api/connections/list-connections/')
        .set(await as(owner))
    ).body.results;
    const response = await http()
      .post('/api/connections/create-metadata/')
      .set(await as(owner))
      .send({
        connectionId: connection.id,
        objectName: 'sp500',
        encryptList: ['Symbol', 'Headquarters Location'],
        fuzzyList: ['Headquarters Location'],
        formatList: [{ column: 'Security', format: 'mask' }],
        linkageKey: LINKAGE_KEY,
      });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'sp500',
      origin: 'database',
      type: 'mysql table',
      is_owner: true,
      enc_headers: ['Symbol', 'Headquarters Location'],
      download_url: null,
      extraction_status: 'done',
    });
    expect(response.body.source).toBe(`mysql://127.0.0.1:3306/${customerMaria.name}/sp500`);
    const tableMeta = response.body.FILES[0].META;

    const upload = await http()
      .post('/api/records/')
      .set(await as(owner))
      .attach('file', path.join(DATASETS, 'csv/sp500-constituents.csv'))
      .field('encryptList', '["Symbol", "Headquarters Location"]')
      .field('fuzzyList', '["Headquarters Location"]')
      .field('formatList', '[{"column": "Security", "format": "mask"}]')
      .field('linkageKey', LINKAGE_KEY);
    expect(upload.status).toBe(201);
    const fileMeta = await eventually(async () => {
      const details = await http()
        .get(`/api/records/${upload.body.id}`)
        .set(await as(owner));
      expect(details.body.extraction_status).toBe('done');
      return details.body.FILES[0].META;
    });
    const shape = (meta: Record<string, unknown>) =>
      Object.keys(meta)
        .filter((k) => k !== 'CSV')
        .sort();
    expect(shape(tableMeta)).toEqual(shape(fileMeta));
    // Sums in another order: means and deviations agree to 12 significant digits. Aggregate queries
    // give no distribution (HISTOGRAM, QUARTILES, TOP_VALUES): the upload's are left out.
    const rounded = (meta: { FILE: { STATS: Record<string, Record<string, unknown>> } }) => ({
      ...meta.FILE,
      STATS: Object.fromEntries(
        Object.entries(meta.FILE.STATS).map(([i, { HISTOGRAM: _h, QUARTILES: _q, TOP_VALUES: _t, ...s }]) => [
          i,
          {
            ...s,
            MEAN: s.MEAN === null ? null : Number((s.MEAN as number).toPrecision(12)),
            STD: s.STD === null ? null : Number((s.STD as number).toPrecision(12)),
          },
        ]),
      ),
    });
    expect(rounded(tableMeta)).toEqual(rounded(fileMeta));
    expect(tableMeta.CLK_COLS).toEqual(['Headquarters Location']);
    for (const key of ['KEYWORDS', 'SHARE_FORMATS', 'ENCRYPTED_COLS', 'CLK_COLS', 'LINKAGE_KEY_ID', 'ERRORS', 'SAMPLES', 'STATUS', 'EXTRACT_OPTION'])
      expect([key, tableMeta[key]]).toEqual([key, fileMeta[key]]);
    expect(JSON.stringify(response.body)).not.toMatch(/"MMM"|3M Company|Saint Paul, Minnesota/);
    expect(JSON.stringify(await catalogue.sql('SELECT * FROM catalogue.records'))).not.toContain(LINKAGE_KEY);
    // record.created and file.metadata-extracted went out through the outbox.
    expect((await catalogue.events(response.body.id)).map((e) => e.type)).toEqual(['record.created']);
    expect((await catalogue.events(response.body.FILES[0].id)).map((e) => e.type)).toEqual(['file.metadata-extracted']);

    const noKey = await http()
      .post('/api/connections/create-metadata/')
      .set(await as(owner))
      .send({ connectionId: connection.id, objectName: 'sp500', encryptList: ['Symbol'] });
    expect([noKey.status, noKey.body]).toEqual([400, { linkageKey: ['Give your linkage key to hash columns.'] }]);
  });

  it('keeps connections to their owner: colleagues and strangers neither list, read, use nor delete them (404)', async () => {
    const [connection] = (
      await http()
        .get('/api/connections/list-connections/')
        .set(await as(owner))
    ).body.results;
    for (const who of [colleague, stranger]) {
      const headers = await as(who);
      expect((await http().get('/api/connections/list-connections/').set(headers)).body).toMatchObject({ count: 0, results: [] });
      const calls = [
        http().get(`/api/connections/${connection.id}/get-connection/`).set(headers),
        http().get(`/api/connections/${connection.id}/list-objects/`).set(headers),
        http().post('/api/connections/get-object/').set(headers).send({ connectionId: connection.id, objectName: 'gdp' }),
        http().post('/api/connections/create-metadata/').set(headers).send({ connectionId: connection.id, objectName: 'gdp' }),
        http().post(`/api/connections/${connection.id}/delete-connection/`).set(headers),
      ];
      for (const response of await Promise.all(calls)) expect([response.status, response.body]).toEqual([404, { detail: 'Not found.' }]);
    }
    const deleted = await http()
      .post(`/api/connections/${connection.id}/delete-connection/`)
      .set(await as(owner));
    expect(deleted.status).toBe(204);
    expect(
      (
        await http()
          .get(`/api/connections/${connection.id}/get-connection/`)
          .set(await as(owner))
      ).status,
    ).toBe(404);
    expect(
      (
        await http()
          .post(`/api/connections/${connection.id}/delete-connection/`)
          .set(await as(owner))
      ).status,
    ).toBe(404);
    expect(
      (
        await http()
          .get('/api/connections/not-a-uuid/get-connection/')
          .set(await as(owner))
      ).status,
    ).toBe(404);
  });
});
