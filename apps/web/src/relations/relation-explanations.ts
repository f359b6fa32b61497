/**
 * What each relation score means, in plain words, shown next to the figures of the Record comparison
 * (the figures themselves are the spec's: scores 0 to 1, NRMSD to 6 decimals).
 */
export const EXPLAIN = {
  semantics:
    'Semantic score: how alike the words of the two records are (names, descriptions, keywords and column names), from 0 (no word alike) to 1 (the same words).',
  structures:
    'Structural score: the share of columns that have a counterpart of the same data type (number, date, text) in the other record; 1 means every column has one.',
  statistics:
    'NRMSD: how far apart the values of two numeric columns are, relative to the range of the first; 0 means identical, 1 means as far apart as that whole range. Only pairs under 10 are listed.',
  joining:
    'Join score: how well rows of the two records could be joined on a pair of columns (similar names and shared values), from 0 to 1. Joinable: some pair shares enough values to join rows. Unionable: every column of the narrower record has a counterpart, so rows could be stacked.',
  linkability:
    'Link score: the share of rows of the first record that find a matching row in the second, from 0 to 1. Matches per column: rows of the first record whose value occurs in the second.',
  valuesFound: 'Values found: the share of one column’s distinct values that also occur in the other column.',
} as const;
