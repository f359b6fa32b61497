import { z } from 'zod';

/**
 * Bidirectional text controls: invisible, they reorder what follows them, so U+202E before "txt.exe"
 * shows it as "exe.txt" in lists and autofill. A name's letters give it its direction, so names
 * refuse the controls rather than every screen having to neutralise them: U+202A-U+202E embeddings
 * and overrides, U+2066-U+2069 isolates, U+200E/U+200F marks, U+061C the Arabic letter mark.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/** The field error for a name holding a bidi control, naming the first one; null when it holds none. */
export function bidiControlMessage(text: string): string | null {
  const found = BIDI_CONTROL.exec(text);
  if (!found) return null;
  const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `Remove the invisible text direction character U+${code}: it can make a name show differently from what it is.`;
}

/**
 * The name check every schema a person names something with uses (accounts, organisations,
 * projects, policies, records, SQL connections). It ends the field's checks, so the
 * field answers this one message rather than every rule the character also breaks.
 */
export function withoutBidiControls<T extends z.ZodString>(schema: T): T {
  return schema.refine((text) => bidiControlMessage(text) === null, { error: (issue) => bidiControlMessage(String(issue.input)) ?? undefined, abort: true });
}

/** A name stored before names refused them, as lists show it: without its bidi controls. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
