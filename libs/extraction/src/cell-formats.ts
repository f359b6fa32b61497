// Number formats and display texts as SheetJS (@e965/xlsx) makes them, for both workbook readers
// (xlsx-reader.ts, xls-reader.ts): its format tables, its error codes, and a cell's display text
// formatted with its SSF from the cell's value (a date's from its serial) and number format.
import type { SheetCell } from './sheet-scan';

/** SheetJS's SSF, the part of it the readers use. */
export type Ssf = { format(format: string, value: unknown, options?: object): string; is_date(format: string): boolean };
/** The xls reader's SSF: dates are made from their parts as SheetJS's .xls parser makes them. */
export type XlsSsf = Ssf & {
  parse_date_code(value: number): { y: number; m: number; d: number; H: number; M: number; S: number; u: number } | null;
};

/** A cell's number format: its id, its code, and whether SheetJS reads numbers in it as dates. */
export interface CellFormat {
  id: number;
  code: string;
  isDate: boolean;
}

/** A cell as a reader makes it: SheetJS's cell, and what its display text is formatted from. */
export interface FormattedCell extends SheetCell {
  /** null: the cell's XF is missing (.xls), so SheetJS gives it no display text. */
  format: CellFormat | null;
  /** The date serial a date cell was read from: its display text is formatted from it. */
  serial?: number;
  formatted?: boolean;
}

// SheetJS's built-in number formats (SSF_init_table) and those it assumes for ids a workbook uses
// without defining them (SSFImplicit).
export const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
  56: '"上午/下午 "hh"時"mm"分"ss"秒 "',
};
export const IMPLICIT_FORMATS: Record<number, string> = {
  5: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  23: 'General',
  24: 'General',
  25: 'General',
  26: 'General',
  27: 'm/d/yy',
  28: 'm/d/yy',
  29: 'm/d/yy',
  30: 'm/d/yy',
  31: 'm/d/yy',
  32: 'h:mm:ss',
  33: 'h:mm:ss',
  34: 'h:mm:ss',
  35: 'h:mm:ss',
  36: 'm/d/yy',
  41: '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* \\(#,##0.00\\);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)',
  50: 'm/d/yy',
  51: 'm/d/yy',
  52: 'm/d/yy',
  53: 'm/d/yy',
  54: 'm/d/yy',
  55: 'm/d/yy',
  56: 'm/d/yy',
  57: 'm/d/yy',
  58: 'm/d/yy',
  59: '0',
  60: '0.00',
  61: '#,##0',
  62: '#,##0.00',
  63: '"$"#,##0_);\\("$"#,##0\\)',
  64: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  65: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  66: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  67: '0%',
  68: '0.00%',
  69: '# ?/?',
  70: '# ??/??',
  71: 'm/d/yy',
  72: 'm/d/yy',
  73: 'd-mmm-yy',
  74: 'd-mmm',
  75: 'mmm-yy',
  76: 'h:mm',
  77: 'h:mm:ss',
  78: 'm/d/yy h:mm',
  79: 'mm:ss',
  80: '[h]:mm:ss',
  81: 'mmss.0',
};
/** Formats third-party tools write wrongly, as SheetJS corrects them. */
export const BAD_FORMATS: Record<string, string> = { 'd.m': 'd\\.m' };
export const ERROR_CODES: Record<string, number> = {
  '#NULL!': 0x00,
  '#DIV/0!': 0x07,
  '#VALUE!': 0x0f,
  '#REF!': 0x17,
  '#NAME?': 0x1d,
  '#NUM!': 0x24,
  '#N/A': 0x2a,
  '#GETTING_DATA': 0x2b,
  '#WTF?': 0xff,
};
// SheetJS's fallbacks for number format ids missing from its table (SSF_default_map, SSF_default_str).
export const DEFAULT_MAP: Record<number, number> = {
  5: 37,
  6: 38,
  7: 39,
  8: 40,
  23: 0,
  24: 0,
  25: 0,
  26: 0,
  27: 14,
  28: 14,
  29: 14,
  30: 14,
  31: 14,
  50: 14,
  51: 14,
  52: 14,
  53: 14,
  54: 14,
  55: 14,
  56: 14,
  57: 14,
  58: 14,
  59: 1,
  60: 2,
  61: 3,
  62: 4,
  67: 9,
  68: 10,
  69: 12,
  70: 13,
  71: 14,
  72: 14,
  73: 15,
  74: 16,
  75: 17,
  76: 20,
  77: 21,
  78: 22,
  79: 45,
  80: 46,
  81: 47,
  82: 0,
};
export const DEFAULT_STRINGS: Record<number, string> = {
  5: '"$"#,##0_);\\("$"#,##0\\)',
  63: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  64: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  65: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  66: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  41: '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* \\(#,##0.00\\);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)',
};
export const ERROR_TEXTS = new Map(Object.entries(ERROR_CODES).map(([text, code]) => [code, text]));

/** SheetJS's table of number formats by id, as a workbook starts with it (its own formats are added to a copy). */
export function builtInFormatTable(): Map<number, string> {
  return new Map<number, string>(Object.entries(BUILT_IN_FORMATS).map(([id, code]) => [Number(id), code]));
}

/** The cell's display text (SheetJS's `.w`), formatted on first use: only shown cells need it. */
export function displayText(cell: FormattedCell, ssf: Ssf, date1904: boolean): string | undefined {
  if (cell.formatted || cell.t === 'e') return cell.w;
  cell.formatted = true;
  const value = cell.serial ?? cell.v;
  if (cell.format === null || (cell.format.id === 0 && value === undefined)) return undefined;
  try {
    cell.w = ssf.format(cell.format.id === 0 ? 'General' : cell.format.code, value, { date1904 });
  } catch {
    cell.w = undefined; // SheetJS leaves .w unset when its formatter throws
  }
  return cell.w;
}
