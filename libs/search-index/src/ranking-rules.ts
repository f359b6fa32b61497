/**
 * The ranking rules the PostgreSQL and in-process adapters share, so both rank alike (the in-process
 * one is checked against the PostgreSQL one page for page): neither adapter imports the other.
 */

/** The score of each ranking tier of a text search, best first (the typo tier adds its similarity). */
export const SCORE = { exactName: 4, name: 3, description: 2, anywhere: 1, typo: 0.5, anyWord: 0.25 } as const;
/** When fewer records than this contain every word, records with any word or a similar name follow them. */
export const FEW_MATCHES = 10;
/** Shortest text that is also matched by trigram similarity (typo tolerance). */
export const MIN_TYPO_LENGTH = 4;
/** "Find similar datasets" ranks this many of the most recently changed records that share a term. */
export const RELATED_CANDIDATES = 1000;

/**
 * The parts of a text the "any word" tier matches: its space-separated parts that hold a letter or
 * digit, each matched whole; quotes, leading minus signs (operators to websearch_to_tsquery) and "or" left out.
 */
export function anyWordParts(text: string): string[] {
  return text
    .replace(/"/g, ' ')
    .split(' ')
    .map((part) => part.replace(/^-+/, ''))
    .filter((part) => part !== '' && part !== 'or' && /[\p{L}\p{N}]/u.test(part));
}
