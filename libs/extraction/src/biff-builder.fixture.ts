// .xls workbooks written record by record for the xls reader's specs: BIFF8 records, the shared
// string table over CONTINUE records, workbook streams and the compound files that hold them.
import * as XLSX from '@e965/xlsx';

export const u16 = (n: number): Buffer => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
export const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
export const f64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return b;
};
export const record = (type: number, ...body: Buffer[]): Buffer => {
  const data = Buffer.concat(body);
  return Buffer.concat([u16(type), u16(data.length), data]);
};
export const isLatin = (text: string): boolean => !/[^\u0000-\u00ff]/.test(text);
export const chars = (text: string, wide: boolean): Buffer => Buffer.from(text, wide ? 'utf16le' : 'latin1');
/** XLUnicodeString: length, flags, characters (one byte each when they all fit, unless `wide`). */
export const unicodeString = (text: string, wide = !isLatin(text)): Buffer => Buffer.concat([u16(text.length), Buffer.from([wide ? 1 : 0]), chars(text, wide)]);

export const BIFF = {
  bof: (kind: number) => record(0x0809, u16(0x0600), u16(kind), u16(0x0dbb), u16(0x07cc), u32(0x80c9), u32(0x0206)),
  eof: () => record(0x000a),
  codepage: (cp: number) => record(0x0042, u16(cp)),
  datemode: (on: boolean) => record(0x0022, u16(on ? 1 : 0)),
  format: (id: number, code: string) => record(0x041e, u16(id), unicodeString(code)),
  xf: (format: number) => record(0x00e0, u16(0), u16(format), u16(0x0001), Buffer.alloc(14)),
  dimensions: (rows: number, columns: number) => record(0x0200, u32(0), u32(rows), u16(0), u16(columns), u16(0)),
  cell: (row: number, column: number, xf: number) => Buffer.concat([u16(row), u16(column), u16(xf)]),
  number: (row: number, column: number, xf: number, value: number) => record(0x0203, BIFF.cell(row, column, xf), f64(value)),
  rk: (row: number, column: number, xf: number, rk: number) => record(0x027e, BIFF.cell(row, column, xf), u32(rk)),
  mulrk: (row: number, column: number, items: Array<[number, number]>) =>
    record(0x00bd, u16(row), u16(column), ...items.map(([xf, rk]) => Buffer.concat([u16(xf), u32(rk)])), u16(column + items.length - 1)),
  labelsst: (row: number, column: number, xf: number, index: number) => record(0x00fd, BIFF.cell(row, column, xf), u32(index)),
  label: (row: number, column: number, xf: number, text: string, wide?: boolean) => record(0x0204, BIFF.cell(row, column, xf), unicodeString(text, wide)),
  boolerr: (row: number, column: number, xf: number, value: number, error: boolean) =>
    record(0x0205, BIFF.cell(row, column, xf), Buffer.from([value, error ? 1 : 0])),
  blank: (row: number, column: number, xf: number) => record(0x0201, BIFF.cell(row, column, xf)),
  mulblank: (row: number, column: number, xfs: number[]) => record(0x00be, u16(row), u16(column), ...xfs.map(u16), u16(column + xfs.length - 1)),
  /** A formula (the token stream: a reference to A1) with its cached result. */
  formula: (row: number, column: number, xf: number, result: Buffer) =>
    record(0x0006, BIFF.cell(row, column, xf), result, u16(0), u32(0), u16(5), Buffer.from([0x24]), u16(0), u16(0xc000)),
  resultNumber: (value: number) => f64(value),
  result: (kind: number, byte = 0) => Buffer.from([kind, 0, byte, 0, 0, 0, 0xff, 0xff]),
  string: (text: string) => record(0x0207, unicodeString(text)),
  note: (row: number, column: number) => record(0x001c, u16(row), u16(column), u16(0), u16(1), u16(0), Buffer.from([0, 0])),
};

/** RK encodings: a 30-bit integer, hundredths, or a double whose low 32 bits are zero. */
export const RK = {
  int: (n: number) => ((n << 2) | 2) >>> 0,
  hundredths: (n: number) => ((Math.round(n * 100) << 2) | 3) >>> 0,
  double: (value: number) => {
    const b = f64(value);
    if (b.readUInt32LE(0) !== 0) throw new Error(`${value} is no RK double`);
    return b.readUInt32LE(4);
  },
  doubleHundredths: (value: number) => (RK.double(value * 100) | 1) >>> 0,
};

export interface SstItem {
  text: string;
  /** Rich text runs (4 bytes each, skipped) */
  runs?: number;
  /** A phonetic block of this many bytes (skipped) */
  phonetic?: number;
}

/**
 * The shared string table in records of at most `max` bytes: a string's header is never split; its
 * characters are, each CONTINUE starting with a flag byte whose width alternates between pieces (two
 * bytes a character whenever one does not fit in one); rich runs and phonetic blocks are split anywhere.
 */
export function sharedStrings(items: SstItem[], max: number): Buffer[] {
  const records: Buffer[][] = [[u32(items.length * 2), u32(items.length)]];
  let size = 8;
  const next = (): void => {
    records.push([]);
    size = 0;
  };
  const put = (bytes: Buffer): void => {
    records[records.length - 1].push(bytes);
    size += bytes.length;
  };
  const putSplit = (bytes: Buffer): void => {
    for (let i = 0; i < bytes.length;) {
      if (size === max) next();
      const n = Math.min(max - size, bytes.length - i);
      put(bytes.subarray(i, i + n));
      i += n;
    }
  };
  for (const item of items) {
    const { text } = item;
    let wide = !isLatin(text.slice(0, 1)) || text.length % 3 === 1;
    const flags = (wide ? 1 : 0) | (item.runs ? 8 : 0) | (item.phonetic ? 4 : 0);
    const header = Buffer.concat([
      u16(text.length),
      Buffer.from([flags]),
      item.runs ? u16(item.runs) : Buffer.alloc(0),
      item.phonetic ? u32(item.phonetic) : Buffer.alloc(0),
    ]);
    if (size + header.length > max) next();
    put(header);
    for (let i = 0, first = true; i < text.length; first = false) {
      if (!first) {
        next();
        wide = !wide || !isLatin(text[i]);
        put(Buffer.from([wide ? 1 : 0]));
      }
      let n = Math.min(text.length - i, Math.floor((max - size) / (wide ? 2 : 1)));
      if (!wide) for (let k = 0; k < n; k++) if (!isLatin(text[i + k])) n = k;
      put(chars(text.slice(i, i + n), wide));
      i += n;
    }
    if (item.runs) putSplit(Buffer.alloc(4 * item.runs, 0x11));
    if (item.phonetic) putSplit(Buffer.alloc(item.phonetic, 0x22));
  }
  return records.map((parts, i) => record(i === 0 ? 0x00fc : 0x003c, ...parts));
}

export interface SheetSpec {
  name: string;
  hidden?: boolean;
  records: Buffer[];
}

/** A BIFF8 workbook stream: the globals (with each sheet's BOUNDSHEET8 pointing at its BOF), then the sheets. */
export function biffStream(globals: Buffer[], sheets: SheetSpec[], options: { codepage?: number } = {}): Buffer {
  const boundsheet = (position: number, sheet: SheetSpec): Buffer =>
    record(
      0x0085,
      u32(position),
      Buffer.from([sheet.hidden ? 1 : 0, 0, sheet.name.length, isLatin(sheet.name) ? 0 : 1]),
      chars(sheet.name, !isLatin(sheet.name)),
    );
  const head = [BIFF.bof(0x0005), BIFF.codepage(options.codepage ?? 1200), ...globals];
  const bodies = sheets.map((sheet) => Buffer.concat([BIFF.bof(0x0010), ...sheet.records, BIFF.eof()]));
  let position = Buffer.concat([...head, ...sheets.map((s) => boundsheet(0, s)), BIFF.eof()]).length;
  const entries = sheets.map((sheet, i) => {
    const entry = boundsheet(position, sheet);
    position += bodies[i].length;
    return entry;
  });
  return Buffer.concat([...head, ...entries, BIFF.eof(), ...bodies]);
}

/** A compound file holding `streams` (SheetJS's CFB writer: small streams go to the mini stream). */
export function compoundFile(streams: Record<string, Buffer>): Buffer {
  const cfb = XLSX.CFB.utils.cfb_new();
  for (const [name, content] of Object.entries(streams)) XLSX.CFB.utils.cfb_add(cfb, `/${name}`, content);
  return Buffer.from(XLSX.CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

/**
 * A compound file written here (version 3, no mini stream: every stream padded to 4096 bytes or more),
 * with the sectors of its streams interleaved, so that none of them lies in one piece.
 */
export function interleavedCompoundFile(streams: Record<string, Buffer>): Buffer {
  const names = Object.keys(streams);
  const chunks = names.map((name) => {
    const data = Buffer.concat([streams[name], Buffer.alloc(Math.max(0, 4096 - streams[name].length))]);
    return Array.from({ length: Math.ceil(data.length / 512) }, (_, i) => data.subarray(i * 512, i * 512 + 512));
  });
  const sectors: Buffer[] = [];
  const owners: number[][] = names.map(() => []);
  for (let round = 0; chunks.some((c) => round < c.length); round++) {
    chunks.forEach((c, s) => {
      if (round < c.length) {
        owners[s].push(sectors.length);
        sectors.push(Buffer.concat([c[round], Buffer.alloc(512 - c[round].length)]));
      }
    });
  }
  const directorySector = sectors.length;
  const entry = (name: string, type: number, child: number, right: number, start: number, size: number): Buffer => {
    const b = Buffer.alloc(128);
    b.write(`${name}\0`, 0, 'utf16le');
    b.writeUInt16LE(2 * (name.length + 1), 64);
    b[66] = type;
    b[67] = 1;
    b.writeInt32LE(-1, 68);
    b.writeInt32LE(right, 72);
    b.writeInt32LE(child, 76);
    b.writeInt32LE(start, 116);
    b.writeUInt32LE(size, 120);
    return b;
  };
  const dirEntries = [
    entry('Root Entry', 5, 1, -1, -2, 0),
    ...names.map((name, i) => entry(name, 2, -1, i + 2 <= names.length ? i + 2 : -1, owners[i][0], Math.max(4096, streams[name].length))),
  ];
  while (dirEntries.length % 4) dirEntries.push(Buffer.alloc(128));
  const directory = Buffer.concat(dirEntries);
  const directorySectors = directory.length / 512;
  for (let i = 0; i < directorySectors; i++) sectors.push(directory.subarray(i * 512, i * 512 + 512));
  const fatSector = sectors.length;
  const fat = new Int32Array(128).fill(-1);
  for (const list of owners) list.forEach((s, i) => (fat[s] = i + 1 < list.length ? list[i + 1] : -2));
  for (let i = 0; i < directorySectors; i++) fat[directorySector + i] = i + 1 < directorySectors ? directorySector + i + 1 : -2;
  fat[fatSector] = -3;
  if (fatSector >= 128) throw new Error('too many sectors for one FAT sector');
  sectors.push(Buffer.from(fat.buffer));
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(1, 44);
  header.writeInt32LE(directorySector, 48);
  header.writeUInt32LE(4096, 56);
  header.writeInt32LE(-2, 60);
  header.writeInt32LE(-2, 68);
  for (let i = 0; i < 109; i++) header.writeInt32LE(i === 0 ? fatSector : -1, 76 + 4 * i);
  return Buffer.concat([header, ...sectors]);
}

/** The workbook stream SheetJS's own compound file reader finds. */
export function sheetjsStream(bytes: Buffer): Buffer {
  const cfb = XLSX.CFB.read(bytes, { type: 'buffer' });
  const entry = XLSX.CFB.find(cfb, '/Workbook') ?? XLSX.CFB.find(cfb, '/Book');
  return Buffer.from(entry?.content as Uint8Array);
}
