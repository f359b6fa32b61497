import { describe, expect, it } from '@jest/globals';
import { formatDate, formatSize, truncate } from './format';

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
});
