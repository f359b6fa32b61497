import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { FieldValidationError } from './api-errors';

/**
 * Text PostgreSQL cannot store: NUL (refused by text, varchar and jsonb alike, a 500 from the
 * database if it got that far) and lone UTF-16 surrogates (no UTF-8 form: the driver would store
 * U+FFFD instead, silently changing what was sent). Messages as Django REST framework words them.
 */
export const NULL_CHARACTERS = 'Null characters are not allowed.';
export const surrogateCharacters = (code: number) => `Surrogate characters are not allowed: U+${code.toString(16).toUpperCase()}.`;

const SURROGATE = /[\ud800-\udfff]/;

/** Why the text cannot be stored, or null when it can. */
export function unstorableTextMessage(text: string): string | null {
  if (text.includes('\u0000')) return NULL_CHARACTERS;
  if (!SURROGATE.test(text)) return null;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    // A high surrogate followed by a low one is a pair (one character outside the BMP).
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return surrogateCharacters(code);
  }
  return null;
}

/**
 * The first unstorable text in a value (strings, object keys, nested lists and objects, however
 * deep), named by its top-level field as field errors are; `non_field_errors` outside an object.
 */
export function unstorableTextIn(value: unknown): { field: string; message: string } | null {
  const pending: Array<{ value: unknown; field: string }> = [];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      const message = unstorableTextMessage(key);
      if (message) return { field: key, message };
      pending.push({ value: child, field: key });
    }
  } else {
    pending.push({ value, field: 'non_field_errors' });
  }
  // A list, not recursion: a body may nest thousands of levels.
  while (pending.length) {
    const { value: next, field } = pending.pop()!;
    if (typeof next === 'string') {
      const message = unstorableTextMessage(next);
      if (message) return { field, message };
    } else if (Array.isArray(next)) {
      for (const child of next) pending.push({ value: child, field });
    } else if (next && typeof next === 'object') {
      for (const [key, child] of Object.entries(next)) {
        const message = unstorableTextMessage(key);
        if (message) return { field, message };
        pending.push({ value: child, field });
      }
    }
  }
  return null;
}

/** Throws the 400 `{"field": ["message"]}` for the first unstorable text in the value. */
export function assertStorableText(value: unknown): void {
  const problem = unstorableTextIn(value);
  if (problem) throw new FieldValidationError({ [problem.field]: [problem.message] });
}

/**
 * Every route of every service: path parameters, query parameters and parsed bodies (JSON, forms)
 * are checked before any handler or pipe sees them. Multipart forms are read by their handlers and
 * checked there (apps/catalogue busboy-multipart).
 */
@Injectable()
export class StorableTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const req = context.switchToHttp().getRequest<Request>();
      assertStorableText(req.params);
      assertStorableText(req.query);
      assertStorableText(req.body);
    }
    return next.handle();
  }
}

/**
 * What the product itself produces from a file (extracted metadata) cannot be refused like a
 * caller's field: NUL and lone surrogates there become U+FFFD, in values and keys alike.
 */
export function toStorableText(text: string): string {
  if (!text.includes('\u0000') && !SURROGATE.test(text)) return text;
  // A lone surrogate is one that is not half of a pair.
  return text.replaceAll('\u0000', '\ufffd').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return toStorableText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableJson(item)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [toStorableText(key), storableJson(child)])) as T;
  }
  return value;
}
