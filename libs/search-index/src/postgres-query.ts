/** Statement helpers of the PostgreSQL adapter (postgres-search-index.ts). */

/**
 * The values of one search, by name. Statements refer to them as `$name`, and each statement is sent
 * with only the values it uses (PostgreSQL rejects a parameter a statement does not mention).
 */
export class Params {
  private readonly values = new Map<string, unknown>();

  set(name: string, value: unknown): string {
    this.values.set(name, value);
    return `$${name}`;
  }

  /** The statement with positional placeholders, and its values. */
  bind(text: string): [string, unknown[]] {
    const used: string[] = [];
    const positional = text.replace(/\$([a-z]\w*)/g, (_match, name: string) => {
      if (!this.values.has(name)) throw new Error(`no value for $${name}`);
      const at = used.indexOf(name);
      return `$${at >= 0 ? at + 1 : used.push(name)}`;
    });
    return [positional, used.map((name) => this.values.get(name))];
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Turns free text into websearch_to_tsquery input meaning "any of these words". Quotes and leading
 * minus signs would be operators there, so they go. Returns '' when nothing word-like is left.
 */
export function anyWordTerms(text: string): string {
  const words = text
    .replace(/"/g, ' ')
    .split(' ')
    .map((word) => word.replace(/^-+/, ''))
    .filter((word) => word !== '' && word !== 'or' && /[\p{L}\p{N}]/u.test(word));
  return words.join(' or ');
}
