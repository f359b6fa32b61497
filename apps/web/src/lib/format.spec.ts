import { describe, expect, it } from '@jest/globals';
import { exactNumber, formatDate, formatNumber, formatSize, truncate } from './format';

describe('display rules of spec section 9', () => {
  it('cuts text at the limit and marks the cut', () => {
    expect(truncate('a'.repeat(140), 140)).toBe('a'.repeat(140));
    expect(truncate('a'.repeat(141), 140)).toBe(`${'a'.repeat(140)}…`);
    expect(truncate(null, 50)).toBe('');
  });

  it('gives sizes from Bytes to TB in steps of 1024', () => {
    expect(formatSize(0)).toBe('0 Bytes');
    expect(formatSize(1023)).toBe('1023 Bytes');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024 ** 2 * 3)).toBe('3 MB');
    expect(formatSize(1024 ** 3 * 2.25)).toBe('2.25 GB');
    expect(formatSize(1024 ** 5)).toBe('1024 TB');
    expect(formatSize(undefined)).toBe('N/A');
    expect(formatSize(-1)).toBe('N/A');
  });

  it('gives dates as YYYY-MM-DD, or N/A when missing or invalid', () => {
    expect(formatDate('2026-03-04T23:59:00Z')).toBe('2026-03-04');
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate('not a date')).toBe('N/A');
  });

  it('gives numbers grouped, with as many decimals as their size warrants, and the exact value for a title', () => {
    expect(formatNumber(105435039507024.0938)).toBe('105,435,039,507,024');
    expect(formatNumber(5009.387231)).toBe('5009');
    expect(formatNumber(1960)).toBe('1960');
    expect(formatNumber(13979)).toBe('13,979');
    expect(formatNumber(500.7693226)).toBe('500.77');
    expect(formatNumber(-49.9954)).toBe('-50');
    expect(formatNumber(2.71828)).toBe('2.718');
    expect(formatNumber(0.123456)).toBe('0.1235');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(1.5e-14)).toBe('1.5 × 10^-14');
    expect(formatNumber(1.0544e18)).toBe('1.054 × 10^18');
    expect(formatNumber(null)).toBe('');
    expect(exactNumber(105435039507024.0938)).toBe('105435039507024.1');
  });
});
