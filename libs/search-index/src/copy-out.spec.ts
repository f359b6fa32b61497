import { createTestDatabase, type TestDatabase } from '@dc/testing';
import { Pool } from 'pg';
import { BinaryCopyRows, copyRowsOut } from './copy-out';

/** A binary COPY's bytes as the server writes them: signature, flags, header extension, rows, trailer. */
function binaryCopy(rows: Array<Array<Buffer | null>>, extension = Buffer.alloc(0)): Buffer {
  const int = (bytes: number, value: number) => {
    const buffer = Buffer.alloc(bytes);
    if (bytes === 2) buffer.writeInt16BE(value);
    else buffer.writeInt32BE(value);
    return buffer;
  };
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int(4, 0), int(4, extension.length), extension];
  for (const row of rows) {
    parts.push(int(2, row.length));
    for (const field of row) parts.push(...(field === null ? [int(4, -1)] : [int(4, field.length), field]));
  }
  parts.push(int(2, -1));
  return Buffer.concat(parts);
}

describe('copyRowsOut', () => {
  const rows = [
    [Buffer.from([0, 0, 0, 1]), Buffer.from('kelp')],
    [Buffer.from([0, 0, 0, 2]), null],
    [Buffer.from([0, 0, 0, 3]), Buffer.alloc(0)],
    [Buffer.from([0, 0, 0, 4]), Buffer.alloc(3_000, 7)],
  ];

  it('reads the rows of a binary COPY whatever pieces its bytes come in', () => {
    const bytes = binaryCopy(rows, Buffer.from('ext'));
    for (const size of [1, 2, 3, 7, 19, 64, 1000, bytes.length]) {
      const read: Array<Array<Buffer | null>> = [];
      const copy = new BinaryCopyRows((fields) => read.push(fields));
      for (let at = 0; at < bytes.length; at += size) {
        // The parser's memory is written over after each piece, as node-postgres's is.
        const piece = Buffer.from(bytes.subarray(at, at + size));
        copy.push(piece);
        piece.fill(0xee);
      }
      expect(copy.ended).toBe(true);
      expect(read).toEqual(rows);
    }
  });

  it('refuses what is not a binary COPY, and data after its trailer', () => {
    expect(() => new BinaryCopyRows(() => undefined).push(Buffer.from('PGCOPY\n\xff\r\n\0'.replace('P', 'Q') + '\0'.repeat(8), 'latin1'))).toThrow(
      'not a binary COPY',
    );
    const copy = new BinaryCopyRows(() => undefined);
    copy.push(binaryCopy([]));
    expect(() => copy.push(Buffer.from([0]))).toThrow('COPY data after its trailer');
  });

  describe('through node-postgres (real PostgreSQL)', () => {
    let db: TestDatabase;
    let pool: Pool;
    beforeAll(async () => {
      db = await createTestDatabase('dc_search_copy_out');
      pool = new Pool({ connectionString: db.url, max: 1 });
      pool.on('error', () => undefined);
    });
    afterAll(async () => {
      await pool?.end();
      await db?.drop();
    });

    it("hands each row's fields over as the server's bytes, large ones whole", async () => {
      const client = await pool.connect();
      try {
        const read: Array<[number, Buffer | null]> = [];
        await copyRowsOut(
          client,
          `SELECT g, CASE WHEN g = 2 THEN NULL ELSE decode(repeat('00ff7f', g * 100000), 'hex') END FROM generate_series(1, 4) g`,
          ([g, data]) => read.push([g!.readInt32BE(0), data]),
        );
        expect(read.map(([g, data]) => [g, data?.length ?? null])).toEqual([
          [1, 300_000],
          [2, null],
          [3, 900_000],
          [4, 1_200_000],
        ]);
        expect(read[3][1]!.subarray(0, 6)).toEqual(Buffer.from([0, 0xff, 0x7f, 0, 0xff, 0x7f]));
        // The connection is left ready for the next statement.
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        client.release();
      }
    });

    it('rejects with the error of the server, or of the row handler, and leaves the connection usable', async () => {
      const client = await pool.connect();
      try {
        await expect(copyRowsOut(client, 'SELECT nothing FROM nowhere', () => undefined)).rejects.toThrow('relation "nowhere" does not exist');
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
        let calls = 0;
        await expect(
          copyRowsOut(client, 'SELECT g FROM generate_series(1, 3) g', () => {
            calls++;
            throw new Error('refused');
          }),
        ).rejects.toThrow('refused');
        // Rows after the refusal are passed over, not handed on.
        expect(calls).toBe(1);
        expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      } finally {
        client.release();
      }
    });
  });
});
