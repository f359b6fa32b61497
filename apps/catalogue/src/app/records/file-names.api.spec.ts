import { randomUUID } from 'node:crypto';
import { listAll, ObjectStorage } from '@dc/storage';
import { describeInfra } from '@dc/testing';
import { caller } from '../../testing/catalogue-test-app';
import { useOneCallerCatalogue } from '../../testing/records-api.fixture';

const org = randomUUID();
const owner = caller('owner', org, [1, 2, 3]);

/** A multipart body written by hand: supertest cannot send these file names. */
function form(parts: Array<{ name: string; filename?: string; type?: string; data: string }>) {
  const boundary = 'names-boundary';
  const body = parts
    .map(
      (p) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.data}\r\n`,
    )
    .join('');
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(`${body}--${boundary}--\r\n`) };
}

/** Bad file names get a safe stored name and the file is kept: never a silent drop. */
describeInfra('catalogue: bad file names (real PostgreSQL, fs storage)', true, () => {
  const suite = useOneCallerCatalogue('dc_catalogue_names', owner);

  const send = (parts: Parameters<typeof form>[0]) => {
    const { type, body } = form(parts);
    return suite.catalogue.http().post('/api/records/').set(suite.auth).set('content-type', type).send(body);
  };

  it.each([
    ['"" (octet-stream)', '', 'application/octet-stream', 'unnamed'],
    ['"."', '.', 'text/csv', 'unnamed.csv'],
    ['".."', '..', 'text/plain', 'unnamed.txt'],
    ['"a/.."', 'a/..', 'text/csv', 'unnamed.csv'],
    ['"..\\\\.."', '..\\\\..', 'application/octet-stream', 'unnamed'],
    ['"..." (dots only)', '...', 'text/csv', 'unnamed.csv'],
    ['"dir/" (a folder)', 'dir/', 'text/csv', 'unnamed.csv'],
    ['a right-to-left override hiding ".exe"', 'report\u202Ecod.exe', 'application/octet-stream', 'reportcod.exe'],
  ])('%s: 201, the file is kept under a safe name with its bytes', async (_what, filename, type, stored) => {
    const content = `id,value\n1,${randomUUID()}\n`;
    const response = await send([{ name: 'file', filename, type, data: content }]);
    expect(response.status).toBe(201);
    expect(response.body.size).toBe(content.length);
    expect(response.body.FILES).toEqual([expect.objectContaining({ name: stored, size: content.length, stored: true })]);
    const [file] = await suite.catalogue.sql<{ storage_key: string }>('SELECT storage_key FROM catalogue.files WHERE id = $1', [response.body.FILES[0].id]);
    expect(await suite.catalogue.app.get(ObjectStorage).exists(file.storage_key)).toBe(true);
  });

  it('"" with a text type: 400 naming the field (the parser reads it as text, so its bytes cannot be kept as sent)', async () => {
    const response = await send([{ name: 'file', filename: '', type: 'text/csv', data: 'a,b\n1,2\n' }]);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ file: [expect.stringMatching(/needs a file name/)] });
  });

  it('a file part without any file name (octet-stream) is kept too', async () => {
    const response = await send([{ name: 'file', type: 'application/octet-stream', data: 'some bytes' }]);
    expect(response.status).toBe(201);
    expect(response.body.FILES).toEqual([expect.objectContaining({ name: 'unnamed', size: 10 })]);
  });

  it('an empty file input (no name, no bytes, as browsers send it) beside a name: a metadata-only record, nothing stored', async () => {
    const before = (await listAll(suite.catalogue.app.get(ObjectStorage), 'catalogue/')).length;
    const response = await send([
      { name: 'name', data: 'Described only' },
      { name: 'file', filename: '', type: 'application/octet-stream', data: '' },
    ]);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Described only', origin: 'metadata', FILES: [] });
    expect((await listAll(suite.catalogue.app.get(ObjectStorage), 'catalogue/')).length).toBe(before);
  });
});
