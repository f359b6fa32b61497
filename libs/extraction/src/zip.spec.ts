import { readFileSync } from 'node:fs';
import yauzl from 'yauzl';
import { buildZip, dataset, extract, extractDataset, parseCsvText } from './spec-support.fixture';
import type { ExtractionResult } from './types';

/** Every entry of a zip with its bytes, read with yauzl directly. */
function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, Buffer>();
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          out.set(entry.fileName, Buffer.alloc(0));
          return zip.readEntry();
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe('zip IndoorMovement.zip', () => {
  let result: ExtractionResult;
  let entries: Map<string, Buffer>;

  beforeAll(async () => {
    result = await extractDataset('zip/IndoorMovement.zip');
    entries = await readZip(dataset('zip/IndoorMovement.zip'));
  });

  it('describes each file member by its own type', () => {
    expect(result.STATUS).toBe('complete');
    expect(entries.size).toBe(322);
    const files = [...entries.keys()].filter((name) => !name.endsWith('/'));
    expect(result.MEMBERS?.map((m) => m.NAME).sort()).toEqual(files.sort());
    const csv = result.MEMBERS?.filter((m) => m.TYPE === 'csv') ?? [];
    expect(csv).toHaveLength(317);
    expect(csv.every((m) => m.STATUS === 'complete')).toBe(true);
    const jpg = result.MEMBERS?.find((m) => m.NAME.endsWith('.jpg'));
    expect(jpg?.STATUS).toBe('skipped');
    const readme = result.MEMBERS?.find((m) => m.NAME.endsWith('README.txt'));
    expect(readme?.TYPE).toBe('txt');
    expect(readme?.DOCUMENT?.WORDS).toBeGreaterThan(0);
  });

  it('member CSVs: "#" header lines, rows and values as read directly', () => {
    for (const member of (result.MEMBERS ?? []).filter((m) => m.TYPE === 'csv')) {
      const [header, ...rows] = parseCsvText((entries.get(member.NAME) as Buffer).toString('utf8'), ',');
      expect(member.FILE?.HEADERS).toEqual(header.map((h) => h.trim().replace(/^#\s*/, '')));
      expect({ name: member.NAME, rows: member.FILE?.TOTAL_ROWS }).toEqual({ name: member.NAME, rows: rows.length });
      expect(member.SIZE).toBe(entries.get(member.NAME)?.length);
      const first = rows.map((r) => Number(r[0]));
      expect(member.FILE?.STATS['0'].MAX).toBe(Math.max(...first));
      expect(member.FILE?.STATS['0'].MIN).toBe(Math.min(...first));
    }
  });
});

describe('zip defences', () => {
  const csv = 'a,b\n1,x\n2,y\n';

  it('a zip bomb member (ratio above maxZipRatio) is not inflated; other members are', async () => {
    const bomb = buildZip([
      { name: 'ok.csv', data: csv },
      { name: 'zeros.csv', data: Buffer.alloc(50 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const result = await extract(bomb, 'bomb.zip');
    expect(result.STATUS).toBe('complete');
    const [ok, zeros] = result.MEMBERS ?? [];
    expect(ok.FILE?.TOTAL_ROWS).toBe(2);
    expect(zeros.STATUS).toBe('failed');
    expect(zeros.ERRORS[0]).toMatch(/Compression ratio \d+:1 is above maxZipRatio 100:1/);
  });

  it('sizes that lie in the headers are caught while reading', async () => {
    const liar = buildZip([{ name: 'big.csv', data: `a\n${'1\n'.repeat(100_000)}`, declaredSize: 10 }]);
    const result = await extract(liar, 'liar.zip');
    expect(result.MEMBERS?.[0].STATUS).toBe('failed');
    expect(result.MEMBERS?.[0].ERRORS[0]).toMatch(/too many bytes|uncompressed/i);
  });

  it('stops at maxZipTotalBytes and at maxZipEntries', async () => {
    const members = Array.from({ length: 5 }, (_, i) => ({ name: `m${i}.csv`, data: `v\n${'7\n'.repeat(400)}` }));
    const total = await extract(buildZip(members), 'many.zip', 'metadata', { maxZipTotalBytes: 2000 });
    expect(total.STATUS).toBe('partial');
    expect(total.MEMBERS).toHaveLength(2);
    expect(total.ERRORS[0]).toMatch(/maxZipTotalBytes/);
    const count = await extract(buildZip(members), 'many.zip', 'metadata', { maxZipEntries: 3 });
    expect(count.STATUS).toBe('partial');
    expect(count.MEMBERS).toHaveLength(3);
    expect(count.ERRORS[0]).toMatch(/maxZipEntries/);
  });

  it.each(['../evil.csv', 'data/../../evil.csv', '/etc/passwd', 'C:\\windows\\evil.csv', '..\\evil.csv'])(
    'rejects the whole archive for the entry name %s',
    async (name) => {
      const result = await extract(
        buildZip([
          { name: 'fine.csv', data: csv },
          { name, data: csv },
        ]),
        'traversal.zip',
      );
      expect(result.STATUS).toBe('failed');
      expect(result.MEMBERS).toBeUndefined();
      expect(result.ERRORS[0]).toMatch(/archive is rejected/);
    },
  );

  it('does not open nested archives', async () => {
    const inner = buildZip([{ name: 'x.csv', data: csv }]);
    const result = await extract(buildZip([{ name: 'inner.zip', data: inner, store: true }]), 'outer.zip');
    expect(result.MEMBERS?.[0]).toMatchObject({ NAME: 'inner.zip', STATUS: 'skipped' });
  });

  it('a truncated archive is reported as damaged, not thrown', async () => {
    const bytes = readFileSync(dataset('zip/IndoorMovement.zip'));
    const result = await extract(bytes.subarray(0, bytes.length / 2), 'IndoorMovement.zip');
    expect(result.STATUS).toBe('failed');
    expect(result.ERRORS[0]).toMatch(/Not a readable zip archive/);
  });
});
