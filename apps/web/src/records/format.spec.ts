import { describe, expect, it } from '@jest/globals';
import { labelOf } from './format';

describe('labelOf', () => {
  const access: [string, string][] = [
    ['Request', 'RE'],
    ['Open', 'OP'],
  ];
  it('names a code by its [label, code] pair, else shows the code, and N/A when there is none', () => {
    expect(labelOf(access, 'OP')).toBe('Open');
    expect(labelOf(access, 'XX')).toBe('XX');
    expect(labelOf(undefined, 'RE')).toBe('RE');
    expect(labelOf(access, null)).toBe('N/A');
  });
});
