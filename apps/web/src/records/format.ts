import type { OptionPair } from './types';

/** Record display rules of spec section 9; sizes, dates and numbers are in ../lib/format. */

/** The label of a code among [label, code] pairs, or the code itself. */
export function labelOf(options: readonly OptionPair[] | undefined, code: string | null | undefined): string {
  if (!code) return 'N/A';
  return options?.find(([, value]) => value === code)?.[0] ?? code;
}
