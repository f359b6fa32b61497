/** Workspace display rules of spec section 9; truncation, sizes and dates are in ../lib/format. */

export const NAME_LIMIT = 50;
export const DESCRIPTION_LIMIT = 140;
export const TYPE_LIMIT = 30;
export const ORIGIN_LIMIT = 20;

/** The card's title: the name, or the alternate name when that one is longer. */
export function displayName(name: string, altName?: string | null): string {
  return altName && altName.length > name.length ? altName : name;
}

const VISIBILITY_LABELS: Record<string, string> = { EV: 'Everyone', PR: 'Private', CU: 'Custom' };

export function visibilityLabel(code: string | undefined): string {
  return code ? (VISIBILITY_LABELS[code] ?? code) : 'N/A';
}

/** The shareable link of a record's details. */
export function recordLink(id: string): string {
  return `${window.location.origin}${window.location.pathname}#/records/${id}`;
}
