import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { clkEncoder } from '@dc/extraction';
import { describeInfra, eventually } from '@dc/testing';
import { Caller, DATASETS } from '../../testing/catalogue-test-app';
import { friend, outsider, owner, useRecordsApi } from '../../testing/records-api.fixture';

const dataset = (name: string) => path.join(DATASETS, name);

const MAX_UPLOAD_BYTES = 100_000;
const CO2 = dataset('csv/co2-annmean-gl.csv'); // 821 bytes
const CO2_MLO = dataset('csv/co2-annmean-mlo.csv'); // 1,161 bytes
const SP500 = dataset('csv/sp500-constituents.csv'); // 53,633 bytes

describeInfra('catalogue records API: private columns (real PostgreSQL, fs storage)', true, () => {
  const api = useRecordsApi({ maxUploadBytes: MAX_UPLOAD_BYTES });
  const { http, as, upload, outbox, counts } = api;

  describe('POST /api/records/', () => {
    describe('private columns (encryptList, formatList, summaryList)', () => {
      /** The owner's linkage key (docs/private-linkage.md) and a value's hash, computed here without the service's code. */
      const linkageKey = Buffer.alloc(32, 11).toString('base64url');
      const hashOf = (value: string) => createHmac('sha256', Buffer.from(linkageKey, 'base64url')).update(value).digest('hex').slice(0, 32);
      // These two files have no quoted line breaks: a split on commas outside quotes reads them.
      const rowsOf = (file: string) =>
        readFileSync(file, 'utf8')
          .trim()
          .split(/\r?\n/)
          .map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((cell) => cell.replace(/^"|"$/g, '')));
      const stringsOf = (node: unknown): string[] =>
        typeof node === 'string'
          ? [node]
          : Array.isArray(node)
            ? node.flatMap(stringsOf)
            : node && typeof node === 'object'
              ? Object.values(node).flatMap(stringsOf)
              : [];
      const extracted = (who: Caller, id: string) =>
        eventually(async () => {
          const details = await http().get(`/api/records/${id}`).set(as(who));
          expect(details.body.extraction_status).toBe('done');
          return details.body;
        });

      it('hashes, masks and excludes columns: META, the record and its events hold no raw value of them', async () => {
        const [header, ...rows] = rowsOf(SP500);
        const response = await upload(owner, [SP500], {
          allowDuplicate: 'true',
          extractOption: 'samples',
          encryptList: JSON.stringify(['symbol', 6]),
          linkageKey,
          formatList: JSON.stringify([
            { column: 'Security', format: 'mask' },
            { column: 'Headquarters Location', format: 'exclude' },
          ]),
          summaryList: JSON.stringify(['Founded']),
        });
        expect(response.status).toBe(201);
        const record = await extracted(owner, response.body.id);
        const meta = record.FILES[0].META;
        expect(meta.FILE.HEADERS).toEqual(header.filter((h) => h !== 'Headquarters Location'));
        expect(meta.ENCRYPTED_COLS).toEqual(['Symbol', 'CIK']);
        expect(record.enc_headers).toEqual(['Symbol', 'CIK']);
        const cik = meta.FILE.HEADERS.indexOf('CIK');
        expect(meta.SHARE_FORMATS).toEqual(
          meta.FILE.HEADERS.map((h: string, index: number) => ({ index, format: h === 'Security' ? 'mask' : 'plain', hash: h === 'Symbol' || h === 'CIK' })),
        );
        expect(meta.FILE.STATS['0'].FORMATTED_VALS).toEqual(rows.slice(0, 5).map((r) => hashOf(r[0])));
        expect(meta.FILE.STATS[String(cik)]).toMatchObject({ MIN: null, MAX: null, WORDSET: [], FORMATTED_VALS: rows.slice(0, 5).map((r) => hashOf(r[6])) });

        const secret = new Set(rows.flatMap((r) => [r[0], r[1], r[4], r[6]]));
        const shown = [...stringsOf(record), ...stringsOf(await outbox(record.id)), ...stringsOf(await outbox(record.FILES[0].id))];
        expect(shown.filter((text) => secret.has(text))).toEqual([]);
        const joined = shown.join('\n');
        expect([...secret].filter((value) => value.length >= 6 && joined.includes(value))).toEqual([]);
        const updated = (await outbox(record.id)).at(-1)!;
        expect(updated.payload).toMatchObject({ encryptedHeaders: ['Symbol', 'CIK'], headers: meta.FILE.HEADERS });
        expect((await outbox(record.FILES[0].id))[0].payload).toMatchObject({ encryptedHeaders: ['Symbol', 'CIK'] });
      });

      it('hashes equal values equally across records and organisations (linkable), by position or name', async () => {
        const rows = rowsOf(CO2).slice(1);
        const years = rows.map((r) => r[0]);
        // Two organisations that agreed on one linkage key.
        const mine = await upload(owner, [CO2], { allowDuplicate: 'true', encryptList: '[0]', linkageKey });
        const theirs = await upload(outsider, [CO2], { allowDuplicate: 'true', encryptList: '["YEAR"]', linkageKey, formatList: '{"Uncertainty": "mask"}' });
        expect([mine.status, theirs.status]).toEqual([201, 201]);
        const [a, b] = [await extracted(owner, mine.body.id), await extracted(outsider, theirs.body.id)];
        expect(a.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS).toEqual(years.slice(0, 5).map(hashOf));
        expect(b.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS).toEqual(a.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS);
        expect(b.FILES[0].META.FILE.STATS['2']).toMatchObject({ MIN: null, MAX: null, FORMATTED_VALS: rows.slice(0, 5).map((r) => r[2].replace(/\d/g, '9')) });
        expect(b.FILES[0].META.SHARE_FORMATS).toEqual([
          { index: 0, format: 'plain', hash: true },
          { index: 1, format: 'plain', hash: false },
          { index: 2, format: 'mask', hash: false },
        ]);
        expect(b.FILES[0].META.LINKAGE_KEY_ID).toBe(a.FILES[0].META.LINKAGE_KEY_ID);
        // The key was needed for the extraction only: nothing of it is left in the database.
        const stored = await api.catalogue.sql<{ private_columns: Record<string, unknown> }>(
          'SELECT private_columns FROM catalogue.records WHERE id = ANY($1)',
          [[mine.body.id, theirs.body.id]],
        );
        for (const row of stored) expect(Object.keys(row.private_columns).sort()).toEqual(['formats', 'hash', 'linkageKeyId', 'prehashed', 'summary']);
        expect(JSON.stringify(await api.catalogue.sql('SELECT * FROM catalogue.records'))).not.toContain(linkageKey);
        // Under another key the same values hash differently: guessing needs the key.
        const stranger = await upload(friend, [CO2], { allowDuplicate: 'true', encryptList: '[0]', linkageKey: Buffer.alloc(32, 12).toString('base64url') });
        const c = await extracted(friend, stranger.body.id);
        expect(c.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS[0]).not.toBe(a.FILES[0].META.FILE.STATS['0'].FORMATTED_VALS[0]);
        expect(c.FILES[0].META.LINKAGE_KEY_ID).not.toBe(a.FILES[0].META.LINKAGE_KEY_ID);
      });

      it('hashes fuzzyList columns as CLKs (fuzzy linkage): META lists them in CLK_COLS, the sketch marks them, no name shows', async () => {
        const [, ...rows] = rowsOf(SP500);
        const response = await upload(owner, [SP500], {
          allowDuplicate: 'true',
          extractOption: 'samples',
          encryptList: '["Security", "Symbol"]',
          fuzzyList: '["security"]',
          linkageKey,
        });
        expect(response.status).toBe(201);
        const record = await extracted(owner, response.body.id);
        const meta = record.FILES[0].META;
        expect([meta.ENCRYPTED_COLS, meta.CLK_COLS]).toEqual([['Symbol', 'Security'], ['Security']]);
        const clk = clkEncoder(new Uint8Array(Buffer.from(linkageKey, 'base64url')));
        expect(meta.FILE.STATS['1'].FORMATTED_VALS.map((v: string) => v.slice(0, 60))).toEqual(rows.slice(0, 5).map((r) => clk(r[1]).slice(0, 60)));
        expect(meta.FILE.STATS['0'].FORMATTED_VALS).toEqual(rows.slice(0, 5).map((r) => hashOf(r[0])));
        const sketched = (await outbox(record.FILES[0].id)).find((e) => e.type === 'file.sketched')!;
        expect((sketched.payload as { tables: Array<{ columns: unknown[] }> }).tables[0].columns[1]).toMatchObject({
          header: 'Security',
          privacy: 'hashed',
          encoding: 'clk',
          linkageKeyId: meta.LINKAGE_KEY_ID,
        });
        const names = new Set(rows.map((r) => r[1]).filter((name) => name.length >= 6));
        const joined = [...stringsOf(record), ...stringsOf(await outbox(record.id)), ...stringsOf(await outbox(record.FILES[0].id))].join('\n');
        expect([...names].filter((name) => joined.includes(name))).toEqual([]);
      });

      it('reports choices that match no column in META.ERRORS; without choices META has no private-column fields', async () => {
        const missing = await upload(owner, [CO2_MLO], { allowDuplicate: 'true', encryptList: '["Station"]', linkageKey });
        const plain = await upload(owner, [CO2_MLO], { allowDuplicate: 'true', formatList: '[]', encryptList: '' });
        const [a, b] = [await extracted(owner, missing.body.id), await extracted(owner, plain.body.id)];
        expect(a.FILES[0].META.ERRORS).toEqual(['Private columns: this file has no column named "Station"']);
        expect(a.enc_headers).toEqual([]);
        expect(b.FILES[0].META).not.toHaveProperty('SHARE_FORMATS');
        expect(b.enc_headers).toEqual([]);
      });

      it('answers 400 with field errors for malformed choices, and stores nothing', async () => {
        const before = await counts();
        const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
          [{ encryptList: '{oops' }, { encryptList: ['Must be a JSON list of column positions (0, 1, ...) or header names, e.g. [0, "Email"].'] }],
          [
            { encryptList: '[-1, 2.5]', summaryList: '"Name"' },
            {
              encryptList: ['Must be a JSON list of column positions (0, 1, ...) or header names, e.g. [0, "Email"].'],
              summaryList: ['Must be a JSON list of column positions (0, 1, ...) or header names, e.g. [0, "Email"].'],
            },
          ],
          [{ formatList: '[{"column": "Name", "format": "blur"}]' }, { formatList: ['Column "Name": the format must be exclude, mask or plain.'] }],
          [
            { formatList: '[{"format": "mask"}]' },
            {
              formatList: [
                'Must be a JSON list of {"column": position or header name, "format": "exclude", "mask" or "plain"}, or a JSON object of header name to format.',
              ],
            },
          ],
          [{ formatList: '{"Name": "mask", "name": "plain"}' }, { formatList: ['Column "name" has two formats (mask and plain).'] }],
          [
            { encryptList: '["Email", 3]', linkageKey, formatList: '[{"column": 3, "format": "exclude"}]' },
            { encryptList: ['Column 3 is excluded: it cannot also be hashed.'] },
          ],
          [{ encryptList: '["Year"]' }, { linkageKey: ['Give your linkage key to hash columns.'] }],
          [{ encryptList: '["Year"]', linkageKey: 'not-a-key' }, { linkageKey: ['Must be a linkage key: 32 bytes in base64url (43 characters).'] }],
          [{ hashedList: '["Year"]' }, { linkageKeyId: ['Give the id of the linkage key the columns were hashed with.'] }],
          [{ encryptList: '["Year"]', linkageKey, fuzzyList: '["Mean"]' }, { fuzzyList: ['Column "Mean" is not hashed: only hashed columns can be fuzzy.'] }],
        ];
        for (const [fields, errors] of cases) {
          const response = await upload(owner, [CO2], { allowDuplicate: 'true', ...fields });
          expect([response.status, response.body]).toEqual([400, errors]);
        }
        expect(await counts()).toEqual(before);
      });
    });
  });
});
