// Statistics of a column that name one person's value (docs/metadata-before-access.md, "Statistics"):
// MIN and MAX are cells, and MEAN of one value is that value. Before access is granted they are
// shown only where they describe many people, the way statistical agencies publish tables: from
// at least MIN_VALUES_FOR_STATISTICS values, and MIN/MAX not of near-unique columns or of columns
// that identify people (national numbers, dates of birth, HL7's patient, next-of-kin, guarantor
// and insurance segments). A pass over META like withoutCellValues, for callers who may not download.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fewer values than this: MIN, MAX, MEAN and STD are withheld (MIN = MAX = MEAN of one value is the value). */
export const MIN_VALUES_FOR_STATISTICS = 10;
/** A column whose distinct values are at least this share of its values is near-unique: each extreme is one row's. */
export const NEAR_UNIQUE_SHARE = 0.9;

/**
 * HL7 fields that describe a person: every field of PID (patient), NK1 (next of kin), GT1
 * (guarantor), IN1/IN2 (insurance); MSH-10 (message control id) and PV1-19 (visit number) point at one visit.
 */
const HL7_IDENTIFYING = /^(?:(?:PID|NK1|GT1|IN1|IN2)-\d+|MSH-10|PV1-19)(?:\.\d+)*$/i;

/** Header words that name a national or personal identifier or a date of birth (English; headers are free text). */
const IDENTIFYING_HEADER =
  /\b(?:ssn|sin|nino|social (?:security|insurance)|national (?:id|identifier|insurance)|passport|driver'?s? licen[cs]e|nhs (?:no|number)|medicare|mrn|medical record|patient (?:id|number)|date of birth|birth ?date|dob|birthday|born|iban|card number|phone|telephone|mobile)\b/;

/** The header as words: lower case, camelCase and punctuation split ("dateOfBirth" -> "date of birth"). */
const headerText = (header: string) =>
  header
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim();

/** True when the header names a column that identifies people. */
export function isIdentifyingHeader(header: string): boolean {
  return HL7_IDENTIFYING.test(header.trim()) || IDENTIFYING_HEADER.test(headerText(header));
}

/** Which of a column's statistics may be shown before access: none, all but its extremes, or all. */
export function publishableStatistics(header: string, dict: { count?: unknown; distinct?: unknown }): 'none' | 'spread' | 'all' {
  const count = Number(dict.count ?? 0);
  const distinct = Number(dict.distinct ?? 0);
  if (count < MIN_VALUES_FOR_STATISTICS) return 'none';
  if (distinct >= NEAR_UNIQUE_SHARE * count || isIdentifyingHeader(header)) return 'spread';
  return 'all';
}

/** A column's most frequent values before access: only of columns whose statistics all show, and only values of at least MIN_VALUES_FOR_STATISTICS rows. */
function thinTopValues(stats: Json, shown: 'none' | 'spread' | 'all'): Json {
  if (!('TOP_VALUES' in stats)) return stats;
  const { TOP_VALUES: top, ...rest } = stats;
  if (shown !== 'all' || !Array.isArray(top)) return rest;
  const kept = top.filter((entry) => isObject(entry) && Number(entry.count) >= MIN_VALUES_FOR_STATISTICS);
  return kept.length > 0 ? { ...rest, TOP_VALUES: kept } : rest;
}

function withholdColumn(header: string, stats: unknown, samples: boolean): unknown {
  if (!isObject(stats) || !('MIN' in stats || 'MAX' in stats || 'MEAN' in stats || 'TOP_VALUES' in stats || 'HISTOGRAM' in stats)) return stats;
  const shown = publishableStatistics(header, isObject(stats.DICT) ? stats.DICT : {});
  const thinned = thinTopValues(stats, shown);
  // With samples the owner chose to show real values: the extremes stay, as MIN and MAX do.
  if (shown === 'all' || samples) return thinned;
  // A histogram's outer edges and the quartiles are values as MIN and MAX are.
  const { HISTOGRAM: _histogram, QUARTILES: _quartiles, ...rest } = thinned;
  const withheld: Json = { ...rest, MIN: null, MAX: null };
  if (shown === 'none') Object.assign(withheld, { MEAN: null, STD: null });
  return withheld;
}

function withholdTable(table: unknown, samples: boolean): unknown {
  if (!isObject(table) || !isObject(table.STATS)) return table;
  const headers = Array.isArray(table.HEADERS) ? table.HEADERS : [];
  return {
    ...table,
    STATS: Object.fromEntries(
      Object.entries(table.STATS).map(([index, stats]) => [index, withholdColumn(String(headers[Number(index)] ?? ''), stats, samples)]),
    ),
  };
}

function withholdResult(meta: Json, depth: number, samples: boolean): Json {
  const result: Json = { ...meta };
  if ('FILE' in meta) result.FILE = withholdTable(meta.FILE, samples);
  if (Array.isArray(meta.SHEETS)) result.SHEETS = meta.SHEETS.map((sheet) => withholdTable(sheet, samples));
  if (Array.isArray(meta.MEMBERS))
    result.MEMBERS = meta.MEMBERS.map((member) => (isObject(member) && depth < 4 ? withholdResult(member, depth + 1, samples) : member));
  return result;
}

/**
 * META for a caller who may not download the data: each table's MIN and MAX, HISTOGRAM and
 * QUARTILES are withheld for columns of fewer than MIN_VALUES_FOR_STATISTICS values, near-unique
 * columns and identifying ones, and MEAN and STD too for the first. TOP_VALUES show only for the
 * other columns, and only values found in at least MIN_VALUES_FOR_STATISTICS rows. With
 * EXTRACT_OPTION 'samples' (real values, chosen knowingly by the owner) only TOP_VALUES are thinned.
 * Any other input is returned unchanged.
 */
export function withoutIdentifyingStatistics<T>(meta: T): T {
  if (!isObject(meta)) return meta;
  return withholdResult(meta, 0, meta.EXTRACT_OPTION === 'samples') as T;
}
