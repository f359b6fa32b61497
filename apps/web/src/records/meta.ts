import type { CatalogueRecord, FileMeta, FileTable, RecordFile } from './types';

/** The newest file that has META, else the newest file. */
export function latestFile(record: CatalogueRecord): RecordFile | undefined {
  return [...record.FILES].reverse().find((file) => file.META) ?? record.FILES.at(-1);
}

/** The main table of a file: FILE, the first sheet, or the first archive member with one. */
export function tableOf(meta: FileMeta | null | undefined, depth = 0): FileTable | undefined {
  if (!meta || depth > 3) return undefined;
  if (meta.FILE?.HEADERS) return meta.FILE;
  if (meta.SHEETS?.[0]?.HEADERS) return meta.SHEETS[0];
  for (const member of meta.MEMBERS ?? []) {
    const table = tableOf(member, depth + 1);
    if (table) return table;
  }
  return undefined;
}

/** The file's words: its own WORDSET plus those of its columns, distinct, in order. */
export function wordSetOf(meta: FileMeta | null | undefined): string[] {
  if (!meta) return [];
  const words = new Set<string>(meta.WORDSET ?? []);
  const table = tableOf(meta);
  for (const stats of Object.values(table?.STATS ?? {})) for (const word of stats.WORDSET ?? []) words.add(word);
  return [...words];
}

export function isNumeric(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
