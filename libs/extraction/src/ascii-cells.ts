// One cell read straight from a file's bytes when all of them are ASCII, giving what column.ts
// gives for the same text without making a string of it: trimming, missing tokens, the value's kind
// and its number. Anything it does not settle itself (a text that starts like a number but is not
// one: dates other than yyyy-mm-dd, times, long digit strings) is answered ASK_TEXT, and the caller
// classifies the cell's text the usual way. For ASCII, a byte is its character's code, so the
// answers are the text path's by construction; ascii-cells.spec.ts compares the two on many inputs.
import { BOOL, DAT, FLT, INT, MISSING_TOKENS, TXT } from './value-kinds';

/** The bytes alone do not settle it: classify the cell's text. */
export const ASK_TEXT = -1;

/** What the last trimAscii / classifyAscii call found (one object, so no allocation per cell). */
export const asciiCell = {
  start: 0,
  end: 0,
  /** The value of an INT or FLT cell: exactly Number(text). */
  number: 0,
  /** Digits after the decimal point of a number written with '.' and no exponent, else -1. */
  fractionDigits: -1,
  /** The number was written with a decimal comma. */
  decimalComma: false,
  /**
   * For an INT or FLT cell: where String(number) ends when it is the cell's own text but for the zeros
   * ending its fraction ("2.50" is "2.5", "3.0" is "3"), so a sketch hashes it in place; -1 when
   * String() writes it another way.
   */
  canonicalEnd: -1,
  // Set by ColumnAccumulator.addAscii, for the column's sketch (sketch.ts) that reads the same cell next:
  /** The cell's kind code, or MISSING_KIND. */
  kind: 0,
  /** hash53 of the trimmed text, when the column's statistics hashed it (not a number), else NaN. */
  textHash: NaN,
  /** The column's distinct values held this one already (known only while it counts them exactly). */
  seenBefore: false,
};

/** asciiCell.kind of a missing cell. */
export const MISSING_KIND = -2;

/** Exact powers of ten (10^22 is the largest one a double holds exactly). */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);
/** Significant digits that always make an integer a double holds exactly (below 2^53). */
const EXACT_DIGITS = 15;

/** String.prototype.trim's ASCII characters: tab, line feed, vertical tab, form feed, carriage return, space. */
function isTrimmed(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Sets asciiCell.start/end to the cell without surrounding white space, as column.ts trims a text. */
export function trimAscii(bytes: Uint8Array, start: number, end: number): void {
  // column.ts trims only when the first or last character is a control character or a space.
  if (start < end && (bytes[start] <= 32 || bytes[end - 1] <= 32)) {
    while (start < end && isTrimmed(bytes[start])) start++;
    while (end > start && isTrimmed(bytes[end - 1])) end--;
  }
  asciiCell.start = start;
  asciiCell.end = end;
}

export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

/** isMissingText of a trimmed ASCII cell. */
export function isMissingAscii(bytes: Uint8Array, start: number, end: number): boolean {
  const length = end - start;
  if (length === 0) return true;
  if (length > 4) return false;
  const c = bytes[start] | 0x20; // missing tokens start with n, ?, " or #
  return (c === 0x6e || c === 0x3f || c === 0x22 || c === 0x23) && MISSING_TOKENS.has(asciiText(bytes, start, end).toLowerCase());
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** true, false, yes or no in any case. */
function isBooleanAscii(bytes: Uint8Array, start: number, end: number): boolean {
  const length = end - start;
  if (length < 2 || length > 5) return false;
  const c = bytes[start] | 0x20;
  if (c !== 0x74 && c !== 0x66 && c !== 0x79 && c !== 0x6e) return false;
  const word = asciiText(bytes, start, end).toLowerCase();
  return word === 'true' || word === 'false' || word === 'yes' || word === 'no';
}

/** yyyy-mm-dd exactly: the first date pattern of column.ts without a time. */
function isIsoDate(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== 10 || bytes[start + 4] !== 45 || bytes[start + 7] !== 45) return false;
  for (let i = start; i < end; i++) if (i !== start + 4 && i !== start + 7 && !isDigit(bytes[i])) return false;
  return true;
}

/**
 * The number of a numeric cell. Up to 15 significant digits and a power of ten up to 22 away, the
 * digits and the power are both exact doubles, so one division or multiplication rounds the value
 * exactly as Number() does (Clinger's fast path); anything else is left to Number().
 */
function numberOf(bytes: Uint8Array, start: number, end: number, point: number): number {
  let i = start;
  let negative = false;
  let c = bytes[i];
  if (c === 43 || c === 45) {
    negative = c === 45;
    c = bytes[++i];
  }
  let mantissa = 0;
  let significant = 0;
  let scale = 0; // digits taken after the point
  let exact = true;
  for (; i < end && isDigit((c = bytes[i])); i++) {
    if (mantissa === 0 && c === 48) continue;
    if (++significant > EXACT_DIGITS) exact = false;
    mantissa = mantissa * 10 + (c - 48);
  }
  if (i < end && c === point) {
    for (i++; i < end && isDigit((c = bytes[i])); i++) {
      scale++;
      if (mantissa === 0 && c === 48) continue;
      if (++significant > EXACT_DIGITS) exact = false;
      mantissa = mantissa * 10 + (c - 48);
    }
  }
  let exponent = 0;
  if (i < end && (c === 101 || c === 69)) {
    c = bytes[++i];
    let expNegative = false;
    if (c === 43 || c === 45) {
      expNegative = c === 45;
      i++;
    }
    let digits = 0;
    for (; i < end && isDigit((c = bytes[i])); i++) {
      exponent = exponent * 10 + (c - 48);
      if (++digits > 4) exact = false;
    }
    if (expNegative) exponent = -exponent;
  }
  const power = exponent - scale;
  if (!exact || power > 22 || power < -22) {
    const text = asciiText(bytes, start, end);
    return Number(point === 44 ? text.replace(',', '.') : text);
  }
  const magnitude = mantissa === 0 ? 0 : power < 0 ? mantissa / POWERS_OF_TEN[-power] : mantissa * POWERS_OF_TEN[power];
  return negative ? -magnitude : magnitude;
}

/**
 * INT or FLT when the cell is a plain decimal number as column.ts's numberKind reads one (optional
 * sign, digits, fraction, exponent; an integer of at most 15 digits), with asciiCell.number,
 * fractionDigits and canonicalEnd set; else -1. Reads and adds up the digits in one pass (numberOf's
 * fast path), and sees on the way whether String(number) gives the text back: no sign but a minus,
 * no leading zero but a lone one, no exponent, at most 15 significant digits once the zeros ending
 * the fraction are dropped, not "-0", and not so small that String() would use an exponent.
 */
function numberKindAscii(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let c = bytes[i];
  let negative = false;
  if (c === 43 || c === 45) {
    negative = c === 45;
    i++;
  }
  let mantissa = 0;
  let significant = 0;
  const intStart = i;
  for (; i < end; i++) {
    c = bytes[i];
    if (c < 48 || c > 57) break;
    if (mantissa !== 0 || c !== 48) {
      significant++;
      mantissa = mantissa * 10 + (c - 48);
    }
  }
  const intDigits = i - intStart;
  const intSignificant = significant;
  const plainInteger = bytes[start] !== 43 && (intDigits === 1 || bytes[intStart] !== 48);
  if (i === end) {
    if (intDigits === 0 || intDigits > 15) return -1;
    asciiCell.number = negative ? -mantissa : mantissa; // at most 15 digits: exact
    asciiCell.fractionDigits = -1;
    asciiCell.decimalComma = false;
    asciiCell.canonicalEnd = plainInteger && !(negative && mantissa === 0) ? end : -1;
    return INT;
  }
  let point = -1;
  let scale = 0;
  /** After the fraction's last digit that is not 0, and the significant digits up to there. */
  let lastNonZero = -1;
  let significantThere = 0;
  /** The fraction's zeros before its first significant digit. */
  let leadingZeros = 0;
  if (c === 46) {
    point = i;
    for (i++; i < end; i++) {
      c = bytes[i];
      if (c < 48 || c > 57) break;
      scale++;
      if (mantissa !== 0 || c !== 48) {
        significant++;
        mantissa = mantissa * 10 + (c - 48);
        if (c !== 48) {
          lastNonZero = i + 1;
          significantThere = significant;
        }
      } else leadingZeros++;
    }
  }
  if (intDigits + scale === 0) return -1;
  let exponent = 0;
  let exponentDigits = 0;
  let hasExponent = false;
  if (i < end && (c === 101 || c === 69)) {
    hasExponent = true;
    c = bytes[++i];
    let expNegative = false;
    if (i < end && (c === 43 || c === 45)) {
      expNegative = c === 45;
      i++;
    }
    for (; i < end; i++) {
      c = bytes[i];
      if (c < 48 || c > 57) break;
      exponent = exponent * 10 + (c - 48);
      exponentDigits++;
    }
    if (exponentDigits === 0) return -1;
    if (expNegative) exponent = -exponent;
  }
  if (i !== end) return -1;
  const power = exponent - scale;
  if (significant <= EXACT_DIGITS && exponentDigits <= 4 && power <= 22 && power >= -22) {
    const magnitude = mantissa === 0 ? 0 : power < 0 ? mantissa / POWERS_OF_TEN[-power] : mantissa * POWERS_OF_TEN[power];
    asciiCell.number = negative ? -magnitude : magnitude;
  } else asciiCell.number = Number(asciiText(bytes, start, end));
  asciiCell.fractionDigits = point >= 0 && !hasExponent ? end - point - 1 : -1;
  asciiCell.decimalComma = false;
  let canonicalEnd = -1;
  if (!hasExponent && plainInteger && intDigits > 0) {
    if (lastNonZero < 0) {
      // A fraction of zeros: String() writes the integer part alone.
      if (intSignificant <= EXACT_DIGITS && !(negative && intSignificant === 0)) canonicalEnd = point;
    } else if (significantThere <= EXACT_DIGITS && !(intSignificant === 0 && leadingZeros >= 6)) canonicalEnd = lastNonZero; // 0.000000x: String() writes 1e-7
  }
  asciiCell.canonicalEnd = canonicalEnd;
  return FLT;
}

/** [+-]?\d+,\d+ : a number with a decimal comma. */
function isDecimalCommaAscii(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (bytes[i] === 43 || bytes[i] === 45) i++;
  const intStart = i;
  while (i < end && isDigit(bytes[i])) i++;
  if (i === intStart || i >= end || bytes[i] !== 44) return false;
  const fracStart = ++i;
  while (i < end && isDigit(bytes[i])) i++;
  return i === end && i > fracStart;
}

/**
 * The kind code of a trimmed, non-missing ASCII cell, as column.ts's classifyCode gives for its
 * text, or ASK_TEXT when only the text's patterns can tell.
 */
export function classifyAscii(bytes: Uint8Array, start: number, end: number, decimalComma: boolean): number {
  const first = bytes[start];
  if (isDigit(first) || first === 43 || first === 45 || first === 46) {
    const numeric = numberKindAscii(bytes, start, end);
    if (numeric >= 0) return numeric;
    if (decimalComma && isDecimalCommaAscii(bytes, start, end)) {
      asciiCell.number = numberOf(bytes, start, end, 44);
      asciiCell.fractionDigits = -1; // column.ts counts decimals after a '.', which this text has not
      asciiCell.decimalComma = true;
      asciiCell.canonicalEnd = -1;
      return FLT;
    }
    return isIsoDate(bytes, start, end) ? DAT : ASK_TEXT;
  }
  return isBooleanAscii(bytes, start, end) ? BOOL : TXT;
}

/** Whether the trimmed cell is a number as column.ts reads one without decimal commas (asciiCell.number set). */
export function isNumberAscii(bytes: Uint8Array, start: number, end: number): boolean {
  return start < end && numberKindAscii(bytes, start, end) >= 0;
}

/**
 * Number(text) of a trimmed cell that is not a number by column.ts's rules: NaN unless the text is
 * one of the other forms Number() accepts (an integer of more than 15 digits, 0x/0o/0b literals).
 */
export function otherNumberOfAscii(bytes: Uint8Array, start: number, end: number): number {
  const first = bytes[start];
  if (!isDigit(first) && first !== 43 && first !== 45) return NaN;
  let i = first === 43 || first === 45 ? start + 1 : start;
  const digitsFrom = i;
  while (i < end && isDigit(bytes[i])) i++;
  const longInteger = i === end && i > digitsFrom;
  const prefix = bytes[start + 1] | 0x20;
  const radix = first === 48 && end - start > 2 && (prefix === 0x78 || prefix === 0x6f || prefix === 0x62); // 0x, 0o, 0b
  return longInteger || radix ? Number(asciiText(bytes, start, end).toLowerCase()) : NaN;
}
