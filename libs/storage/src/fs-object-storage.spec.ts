import { mkdtemp, readdir, rm, stat, writeFile, mkdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { InvalidSignedLinkError, ObjectNotFoundError } from './errors';
import { FsObjectStorage } from './fs-object-storage';
import { listAll } from './object-storage';
import { objectStorageContract, readAll } from './object-storage.contract';
import { attachmentContentDisposition, SIGNED_DOWNLOAD_PATH, SignedLinkSigner, verifySignedDownloadToken } from './signed-link-signer';

const SECRET = 'test-secret-for-signed-links-0123456789';
const PUBLIC_BASE_URL = 'http://localhost:3000';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

objectStorageContract('fs', async (clock) => {
  const rootDir = await mkdtemp(join(tmpdir(), 'dc-fs-storage-'));
  const signer = new SignedLinkSigner(SECRET, { now: clock.now });
  const storage = new FsObjectStorage({ rootDir, publicBaseUrl: PUBLIC_BASE_URL, signer });
  return {
    storage,
    // What the gateway's download route does: check the URL, verify the token, stream the key.
    async download(url) {
      const parsed = new URL(url);
      if (`${parsed.origin}${parsed.pathname}` !== `${PUBLIC_BASE_URL}${SIGNED_DOWNLOAD_PATH}`) throw new Error(`Unexpected URL ${url}`);
      const link = signer.verify(parsed.searchParams.get('token') ?? '');
      const body = await readAll(await storage.get(link.key));
      return { body, contentDisposition: link.fileName !== undefined ? attachmentContentDisposition(link.fileName) : undefined };
    },
    leftovers: (prefix) => filesUnder(join(rootDir, prefix)),
    close: () => rm(rootDir, { recursive: true, force: true }),
  };
});

describe('FsObjectStorage specifics', () => {
  let rootDir: string;
  let storage: FsObjectStorage;
  const signer = new SignedLinkSigner(SECRET);

  beforeEach(async () => {
    rootDir = await mkdtemp(join(tmpdir(), 'dc-fs-storage-'));
    storage = new FsObjectStorage({ rootDir: join(rootDir, 'objects'), publicBaseUrl: `${PUBLIC_BASE_URL}/`, signer });
  });
  afterEach(() => rm(rootDir, { recursive: true, force: true }));

  it('fails its readiness check when its directory cannot be written', async () => {
    await storage.check();
    await rm(join(rootDir, 'objects'), { recursive: true });
    await writeFile(join(rootDir, 'objects'), 'a file where the directory should be');
    await expect(storage.check()).rejects.toThrow(/EEXIST|ENOTDIR/);
  });

  it('stores objects as plain files under the root, creating folders as needed', async () => {
    await storage.put('records/1/data.csv', Readable.from([Buffer.from('a,b\n')]), { contentType: 'text/csv' });
    expect((await stat(join(rootDir, 'objects/records/1/data.csv'))).size).toBe(4);
  });

  it('never writes under the real key until the body is complete', async () => {
    const key = 'records/2/data.bin';
    let seenDuringWrite: boolean | undefined;
    async function* body() {
      yield Buffer.alloc(64 * 1024, 1);
      // Mid-stream: the real path must not exist yet, only a reserved temporary name.
      seenDuringWrite = await stat(join(rootDir, 'objects', key)).then(
        () => true,
        () => false,
      );
      yield Buffer.alloc(64 * 1024, 2);
    }
    await storage.put(key, Readable.from(body()));
    expect(seenDuringWrite).toBe(false);
    expect(await listAll(storage, '')).toEqual([key]);
  });

  it('ignores leftover temporary files (as after a crash) when listing', async () => {
    await mkdir(join(rootDir, 'objects/x'), { recursive: true });
    await writeFile(join(rootDir, 'objects/x/.~tmp-0123456789abcdef'), 'half written');
    await storage.put('x/real', Readable.from([Buffer.from('1')]));
    expect(await listAll(storage, '')).toEqual(['x/real']);
  });

  it('deletes a write of the key that never finished (the process died mid-upload), and only that one', async () => {
    let release!: () => void;
    async function* endless() {
      yield Buffer.alloc(1024, 1);
      await new Promise<void>((resolve) => (release = resolve));
      yield Buffer.alloc(1024, 2);
    }
    const unfinished = storage.put('x/data.csv', Readable.from(endless()), { contentType: 'text/csv' });
    const partials = join(rootDir, 'objects/x/.~partial');
    while ((await readdir(partials).catch(() => [])).length === 0) await new Promise((r) => setTimeout(r, 10));
    await storage.put('x/data.csv.old', Readable.from([Buffer.from('kept')]));
    // As after kill -9: the write's temporary file stays; deleting the key removes it.
    await storage.delete('x/data.csv');
    expect(await readdir(partials)).toEqual([]);
    expect(await listAll(storage, 'x/')).toEqual(['x/data.csv.old']);
    release();
    await expect(unfinished).rejects.toThrow();
  });

  it('treats folders as missing objects', async () => {
    await storage.put('folder/inner', Readable.from([Buffer.from('1')]));
    await expect(storage.get('folder')).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await storage.stat('folder')).toBeNull();
    await storage.delete('folder');
    expect(await storage.exists('folder/inner')).toBe(true);
  });

  it('keeps every path inside the root', async () => {
    // A sibling directory whose name shares the root's prefix must stay unreachable.
    await mkdir(join(rootDir, 'objects-evil'), { recursive: true });
    await writeFile(join(rootDir, 'objects-evil/secret'), 'no');
    await expect(storage.get('../objects-evil/secret')).rejects.toThrow(/Invalid object key/);
    await symlink('/etc', join(rootDir, 'link')).catch(() => undefined);
    await expect(storage.get('../link/passwd')).rejects.toThrow(/Invalid object key/);
  });

  it('builds download URLs under /api/files/download whose token verifies back to the key', async () => {
    const url = await storage.signedDownloadUrl('records/1/data.csv', { expiresInSeconds: 60, fileName: 'data.csv' });
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe('http://localhost:3000/api/files/download');
    const link = verifySignedDownloadToken(parsed.searchParams.get('token') ?? '', SECRET);
    expect(link).toMatchObject({ key: 'records/1/data.csv', fileName: 'data.csv' });
    expect(() => verifySignedDownloadToken(parsed.searchParams.get('token') ?? '', `${SECRET}-other`)).toThrow(InvalidSignedLinkError);
  });
});
