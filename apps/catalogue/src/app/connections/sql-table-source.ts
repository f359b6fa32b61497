import type { AggregatedTableSource, ColumnAggregates } from '@dc/extraction';

/**
 * What differs between MySQL/MariaDB and PostgreSQL in the statements of SqlTableSource: quoting,
 * a column's value as trimmed text, regular expressions, conversion to a double, exact (binary)
 * text comparison, random order.
 */
export interface SqlDialect {
  quote(identifier: string): string;
  text(column: string): string;
  matches(text: string, pattern: string): string;
  double(text: string): string;
  exact(text: string): string;
  random: string;
}

// The patterns of libs/extraction's classify(), for a value's trimmed text.
const INTEGER = '^[+-]?[0-9]{1,15}$';
const DIGITS_ONLY = '^[+-]?[0-9]+$';
const NUMBER = '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$';
const DATES = [
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$',
  '^[0-9]{1,2}[/.-][0-9]{1,2}[/.-][0-9]{4}$',
  '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}$',
];
const TIME = '^[0-9]{1,2}[:.][0-9]{2}([:.][0-9]{2})?$';
const MISSING = ['', 'na', 'n/a', 'null', 'none', 'nan', '?', '""', '#n/a'];
const BOOLEAN = ['true', 'false', 'yes', 'no'];

const list = (values: string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');

export type Query = (sql: string) => Promise<unknown[][]>;

/**
 * A table's answers to describeAggregatedTable, each one statement: every column's counts, kinds,
 * numbers and distinct values in one pass over the table, the first rows, and (when asked) samples
 * in random order and a text column's most frequent values. Only quoted names from the listing are
 * written into statements; patterns and token lists are constants.
 */
export class SqlTableSource implements AggregatedTableSource {
  constructor(
    private readonly dialect: SqlDialect,
    private readonly from: string,
    readonly headers: string[],
    private readonly query: Query,
  ) {}

  private text(index: number): string {
    return this.dialect.text(this.dialect.quote(this.headers[index]));
  }

  private missing(t: string): string {
    return `(${t} IS NULL OR LOWER(${t}) IN (${list(MISSING)}))`;
  }

  private isNumber(t: string): string {
    const d = this.dialect;
    return `(${d.matches(t, INTEGER)} OR (${d.matches(t, NUMBER)} AND NOT ${d.matches(t, DIGITS_ONLY)}))`;
  }

  async rowCount(): Promise<number> {
    const [[count]] = await this.query(`SELECT COUNT(*) FROM ${this.from}`);
    return Number(count);
  }

  async aggregates(column: number, options: { hashed: boolean }): Promise<ColumnAggregates> {
    const d = this.dialect;
    const t = this.text(column);
    const present = `NOT ${this.missing(t)}`;
    const number = this.isNumber(t);
    const value = `CASE WHEN ${present} AND ${number} THEN ${d.double(t)} END`;
    const count = (condition: string) => `SUM(CASE WHEN ${present} AND ${condition} THEN 1 ELSE 0 END)`;
    const integer = d.matches(t, INTEGER);
    const date = `(${DATES.map((p) => d.matches(t, p)).join(' OR ')})`;
    const time = d.matches(t, TIME);
    const bool = `LOWER(${t}) IN (${list(BOOLEAN)})`;
    const decimals = `MAX(CASE WHEN ${present} AND ${number} AND POSITION('.' IN ${t}) > 0 AND LOWER(${t}) NOT LIKE '%e%' THEN CHAR_LENGTH(${t}) - POSITION('.' IN ${t}) END)`;
    const distinct = options.hashed
      ? `COUNT(DISTINCT CASE WHEN ${present} THEN ${d.exact(t)} END)`
      : `COUNT(DISTINCT ${value}) + COUNT(DISTINCT CASE WHEN ${present} AND NOT ${number} THEN ${d.exact(t)} END)`;
    const [row] = await this.query(
      `SELECT SUM(CASE WHEN ${this.missing(t)} THEN 1 ELSE 0 END),
              ${count(integer)}, ${count(`${number} AND NOT ${integer}`)},
              ${count(`NOT ${number} AND ${bool}`)}, ${count(`NOT ${number} AND ${date}`)}, ${count(`NOT ${number} AND NOT ${date} AND ${time}`)},
              ${count(`NOT ${number} AND NOT ${date} AND NOT ${time} AND NOT ${bool}`)},
              MIN(${value}), MAX(${value}), AVG(${value}), STDDEV_SAMP(${value}), ${decimals}, ${distinct}
         FROM ${this.from}`,
    );
    const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      missing: n(row[0]) ?? 0,
      kindCounts: [n(row[1]) ?? 0, n(row[2]) ?? 0, n(row[3]) ?? 0, n(row[4]) ?? 0, n(row[5]) ?? 0, n(row[6]) ?? 0],
      min: n(row[7]),
      max: n(row[8]),
      mean: n(row[9]),
      std: n(row[10]),
      decimals: Math.min(6, n(row[11]) ?? 0),
      distinct: n(row[12]) ?? 0,
    };
  }

  async firstRows(columns: number[], limit: number): Promise<Array<Array<string | null>>> {
    if (limit <= 0 || columns.length === 0) return [];
    const rows = await this.query(`SELECT ${columns.map((i) => this.text(i)).join(', ')} FROM ${this.from} LIMIT ${Math.floor(limit)}`);
    return rows.map((row) => row.map((v) => (v === null ? null : String(v))));
  }

  async sampleValues(column: number, limit: number): Promise<string[]> {
    const t = this.text(column);
    const rows = await this.query(`SELECT ${t} FROM ${this.from} WHERE NOT ${this.missing(t)} ORDER BY ${this.dialect.random} LIMIT ${Math.floor(limit)}`);
    return rows.map((row) => String(row[0]));
  }

  async frequentValues(column: number, limit: number): Promise<Array<[string, number]>> {
    const t = this.text(column);
    const rows = await this.query(
      `SELECT ${t}, COUNT(*) FROM ${this.from} WHERE NOT ${this.missing(t)} GROUP BY ${t} ORDER BY COUNT(*) DESC LIMIT ${Math.floor(limit)}`,
    );
    return rows.map((row) => [String(row[0]), Number(row[1])]);
  }

  async firstNonNumeric(column: number): Promise<string | null> {
    const t = this.text(column);
    const rows = await this.query(`SELECT ${t} FROM ${this.from} WHERE NOT ${this.missing(t)} AND NOT ${this.isNumber(t)} LIMIT 1`);
    return rows.length ? String(rows[0][0]) : null;
  }
}
