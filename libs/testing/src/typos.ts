/**
 * One typo in `value`, as people make them: a letter dropped, doubled, replaced by one of `letters`
 * or two letters swapped, never the first letter. Draws from `random` (a seeded generator gives the
 * same typos every run): where, what, and for a replacement which letter.
 */
export function typo(value: string, random: () => number, letters: string): string {
  const i = 1 + Math.floor(random() * (value.length - 2));
  switch (Math.floor(random() * 4)) {
    case 0:
      return value.slice(0, i) + value.slice(i + 1);
    case 1:
      return value.slice(0, i) + value[i] + value.slice(i);
    case 2:
      return value.slice(0, i) + letters[Math.floor(random() * letters.length)] + value.slice(i + 1);
    default:
      return value.slice(0, i - 1) + value[i] + value[i - 1] + value.slice(i + 1);
  }
}
