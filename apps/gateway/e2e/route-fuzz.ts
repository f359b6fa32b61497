import { seededRandom } from '@dc/extraction';
import { ROUTES } from '../src/app/route-table';

/**
 * A seeded, reproducible generator of hostile requests over every route the product has: the
 * paths and methods of its OpenAPI document (which @nestjs/swagger builds from Nest's router),
 * plus every prefix of the gateway's route table (routes not written yet must answer 404, not
 * crash) and the paths outside /api. The same seed gives the same requests.
 */

export interface FuzzRoute {
  method: string;
  /** With {param} placeholders, as OpenAPI writes them. */
  path: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzContext {
  /** A valid `JWT ...` header of a signed-in account. */
  authorization: string;
  /** Ids that exist (a record, a file, an organisation, another account), so some calls get past the 404s. */
  knownIds: string[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

/** Routes from the OpenAPI document and the gateway's route table. */
export function fuzzRoutes(openApi: { paths: Record<string, Record<string, unknown>> }): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const [path, operations] of Object.entries(openApi.paths)) {
    for (const method of Object.keys(operations)) if (METHODS.includes(method.toUpperCase())) routes.push({ method: method.toUpperCase(), path });
  }
  for (const { prefix, methods } of ROUTES) {
    for (const method of methods ?? ['GET', 'POST', 'PUT', 'DELETE']) routes.push({ method, path: `${prefix}/{id}/` }, { method, path: `${prefix}/` });
  }
  routes.push({ method: 'GET', path: '/internal/token-status' }, { method: 'GET', path: '/internal/{id}' }, { method: 'GET', path: '/{id}' });
  return routes;
}

/** Pages and page sizes no list has: past any bigint offset, past a double, negative, zero, not numbers. */
export const HOSTILE_PAGES = ['99999999999999999999999', '9'.repeat(400), String(Number.MAX_SAFE_INTEGER), '1000001', '1e309', '-1', '0', '1.5', 'NaN'];

/**
 * Every list of the document (a GET with a `page` or `page_size` parameter) called with each hostile
 * page, page size and both: a seeded run may never draw them for a given list, so they are all sent.
 */
export function pagingProbes(
  openApi: { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> },
  ctx: FuzzContext,
): FuzzRequest[] {
  const lists = Object.entries(openApi.paths)
    .filter(
      ([path, operations]) =>
        !path.includes('{') && (operations.get?.parameters ?? []).some((p) => p.in === 'query' && (p.name === 'page' || p.name === 'page_size')),
    )
    .map(([path]) => path);
  return lists.flatMap((path) =>
    HOSTILE_PAGES.flatMap((value) => [`page=${value}`, `page_size=${value}`, `page=${value}&page_size=${value}`]).map((query) => ({
      method: 'GET',
      path: `${path}/?${query}`,
      headers: { authorization: ctx.authorization },
    })),
  );
}

/** Text nobody should store or trust: NUL, lone surrogates, controls, markup, huge, path tricks. */
const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '💩'.repeat(50),
  '\u202e\u0007\u001b[31m',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../../../etc/passwd',
  '%00',
  '{{7*7}}',
  '',
  ' ',
  'null',
  'true',
  '-1',
  '1e309',
  '9'.repeat(400),
  'A'.repeat(70_000),
  '\r\nX-Injected: 1',
  'https://127.0.0.1:1/',
  'file:///etc/passwd',
  '00000000-0000-0000-0000-000000000000',
];

/** Path segments: already percent-encoded where that is the point. */
const HOSTILE_SEGMENTS = [
  '%00',
  '..',
  '%2e%2e',
  '%2F',
  '%ZZ',
  '%ED%A0%80',
  '%F0%9F%92%A9',
  '-1',
  '0',
  '1e309',
  'null',
  'undefined',
  '[object%20Object]',
  'a'.repeat(5000),
  '%0d%0aX-Injected:%201',
  '12345678-1234-1234-1234-123456789012',
];

const FIELD_NAMES = [
  'name',
  'alt_name',
  'description',
  'provenance',
  'source',
  'access',
  'accessFee',
  'currency',
  'policy',
  'groups',
  'visibility',
  'recordFields',
  'RECORD',
  'record',
  'extractOption',
  'allowDuplicate',
  'deleteFile',
  'saveSeparately',
  'extractFromURL',
  'encryptList',
  'fuzzyList',
  'formatList',
  'summaryList',
  'username',
  'email',
  'password',
  'password_confirm',
  'first_name',
  'last_name',
  'old_password',
  'new_password',
  'new_password_confirm',
  'active',
  'client_type',
  'visibility_selection',
  'organisations_with_visibility',
  'users_with_visibility',
  'associated_record',
  'status',
  'note',
  'purpose',
  'message',
  'token',
  '__proto__',
  'constructor',
];

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes out as its CESU-8 bytes. */
function encodeText(text: string): string {
  return Array.from(text, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%ED%A0%80';
    }
  }).join('');
}

const QUERY_NAMES = [
  'query',
  'view',
  'page',
  'page_size',
  'refid',
  'group',
  'file',
  'token',
  'associated_record',
  'record',
  'record1',
  'record2',
  'word',
  'header',
  'request',
  'email',
];

export class RequestFuzzer {
  private readonly random: () => number;

  constructor(
    readonly seed: number,
    private readonly ctx: FuzzContext,
  ) {
    this.random = seededRandom(seed);
  }

  private int(max: number): number {
    return Math.floor(this.random() * max);
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  private uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  private text(): string {
    if (this.chance(0.6)) return this.pick(HOSTILE_TEXT);
    const length = this.int(40);
    return Array.from({ length }, () => String.fromCharCode(this.chance(0.9) ? 32 + this.int(95) : this.int(0xffff))).join('');
  }

  private value(depth = 0): unknown {
    switch (this.int(depth > 3 ? 5 : 9)) {
      case 0:
      case 1:
        return this.text();
      case 2:
        return this.pick([0, -1, 1.5, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER]);
      case 3:
        return this.chance(0.5);
      case 4:
        return this.chance(0.5) ? null : this.pick(this.ctx.knownIds);
      case 5:
      case 6:
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: this.int(4) }, () => [this.pick(FIELD_NAMES), this.value(depth + 1)]));
    }
  }

  private segment(): string {
    const roll = this.random();
    if (roll < 0.35) return this.pick(this.ctx.knownIds);
    if (roll < 0.55) return this.uuid();
    return this.pick(HOSTILE_SEGMENTS);
  }

  private query(): string {
    const pairs: string[] = [];
    for (let i = this.int(4); i > 0; i--) {
      const name = this.pick(QUERY_NAMES);
      const key = this.chance(0.1) ? `${name}[${this.pick(['a', '__proto__', '0'])}]` : name;
      // Short enough for the request line (Node refuses more than 16 KB of headers before the product sees it).
      const value = this.chance(0.3) ? this.pick(HOSTILE_SEGMENTS) : encodeText(this.text().slice(0, 1000));
      pairs.push(`${encodeURIComponent(key)}=${value}`);
    }
    return pairs.length ? `?${pairs.join('&')}` : '';
  }

  private body(method: string): { type?: string; body?: Buffer } {
    if (!['POST', 'PUT', 'PATCH'].includes(method) && this.chance(0.8)) return {};
    const fields = () => Object.fromEntries(Array.from({ length: 1 + this.int(6) }, () => [this.pick(FIELD_NAMES), this.value()]));
    switch (this.int(10)) {
      case 0:
        return {
          type: 'application/json',
          body: Buffer.from(this.pick(['{"name": ', '[', '{"a":1}}', 'nul', '"\\ud800"', '{"name":"\\u0000"}', `${'['.repeat(5000)}${']'.repeat(5000)}`])),
        };
      case 1:
        return { type: 'application/json', body: Buffer.from(JSON.stringify(this.value())) };
      case 2:
        return {
          type: 'application/x-www-form-urlencoded',
          body: Buffer.from(
            Object.entries(fields())
              .map(([k, v]) => `${encodeText(k)}=${encodeText(String(v))}`)
              .join('&'),
          ),
        };
      case 3:
        return {
          type: this.pick(['text/plain', 'application/xml', 'application/octet-stream', 'multipart/form-data', 'application/json; charset=utf-16']),
          body: Buffer.from(this.text()),
        };
      case 4:
      case 5:
        return this.multipart(fields());
      default:
        return { type: 'application/json', body: Buffer.from(JSON.stringify(fields())) };
    }
  }

  private multipart(fields: Record<string, unknown>): { type: string; body: Buffer } {
    const boundary = `fuzz${this.int(1e9)}`;
    const chunks: string[] = [];
    for (const [name, value] of Object.entries(fields))
      chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`);
    for (let i = this.int(3); i > 0; i--) {
      const filename = this.pick(['data.csv', '', '.', '..', 'a/..', '../../x.csv', 'x\u0000.csv', 'Résumé.hl7', 'big.zip', 'n'.repeat(400)]);
      const name = this.pick(['file', 'file', 'files[]', 'other']);
      const content = this.pick(['a,b\n1,2\n', 'MSH|^~\\&|\rPID|||\r', '\u0000\u0001\u0002', 'PK\u0003\u0004broken', '']);
      chunks.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${this.pick(['text/csv', 'application/octet-stream', 'application/zip'])}\r\n\r\n${content}\r\n`,
      );
    }
    const closing = this.chance(0.85) ? `--${boundary}--\r\n` : '';
    return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(chunks.join('') + closing) };
  }

  private authorization(): string | undefined {
    const roll = this.random();
    if (roll < 0.6) return this.ctx.authorization;
    if (roll < 0.85) return undefined;
    return this.pick(['JWT ', 'JWT a.b.c', 'Bearer x', `JWT ${'A'.repeat(9000)}`, 'JWT eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', `${this.ctx.authorization}x`]);
  }

  next(route: FuzzRoute): FuzzRequest {
    const method = this.chance(0.85) ? route.method : this.pick(METHODS);
    let path = route.path.replace(/\{[^}]+\}/g, () => this.segment());
    if (this.chance(0.3)) path = path.endsWith('/') ? path.slice(0, -1) || '/' : `${path}/`;
    path += this.query();
    const headers: Record<string, string> = {};
    const authorization = this.authorization();
    if (authorization) headers.authorization = authorization;
    const { type, body } = this.body(method);
    if (type) headers['content-type'] = type;
    if (this.chance(0.05)) headers['x-correlation-id'] = this.pick(['\u0000', 'a'.repeat(500), '../x', 'ok-id']).replace(/[^\x20-\x7e]/g, '');
    return { method, path, headers, body };
  }
}
