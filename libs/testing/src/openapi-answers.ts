import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The checked-in OpenAPI document (`npm run openapi` writes it from the controllers' zod contracts). */
export const OPENAPI_DOCUMENT_FILE = path.resolve(__dirname, '../../../docs/openapi.json');

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> } | undefined>;
}
interface Document {
  paths: Record<string, Partial<Record<HttpMethod, Operation>>>;
  components?: object;
}

/** What an HTTP answer needs for the check (a fetch result read by the caller, or a supertest response). */
export interface Answer {
  status: number;
  body: unknown;
  /** The raw body: an empty one means no body. */
  text?: string;
}

/**
 * Checks real answers of the API against docs/openapi.json: the status is documented for the
 * operation (or falls under `default`), and the body validates against its schema. Mismatches are
 * collected, so a suite checks every call it makes and asserts once at the end.
 */
export class DocumentedAnswers {
  readonly mismatches: string[] = [];
  /** `METHOD /template → status` of every answer checked. */
  readonly checked = new Set<string>();
  readonly document: Document;
  private readonly templates: Array<[string, RegExp]>;
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<object, ValidateFunction>();

  constructor(file = OPENAPI_DOCUMENT_FILE) {
    this.document = JSON.parse(readFileSync(file, 'utf8')) as Document;
    addFormats(this.ajv);
    this.ajv.addSchema({ components: this.document.components }, 'openapi');
    // Literal paths before templates: /api/requests/sent_requests is not /api/requests/{id}.
    this.templates = Object.keys(this.document.paths)
      .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
      .map((template) => [template, new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)]);
  }

  /** The documented operation of a concrete call: `/api/policies/<uuid>/` → `GET /api/policies/{id}`. */
  operationOf(method: HttpMethod, url: string): { name: string; operation: Operation } | undefined {
    const pathname = new URL(url, 'http://x').pathname.replace(/(.)\/$/, '$1');
    for (const [template, pattern] of this.templates) {
      const operation = this.document.paths[template][method];
      if (operation && pattern.test(pathname)) return { name: `${method.toUpperCase()} ${template}`, operation };
    }
    return undefined;
  }

  /** Checks one answer; a redirect (302) carries no documented body. */
  check(method: HttpMethod, url: string, answer: Answer): void {
    const found = this.operationOf(method, url);
    if (!found) {
      this.mismatches.push(`${method.toUpperCase()} ${url}: not in the document`);
      return;
    }
    const documented = found.operation.responses[String(answer.status)] ?? found.operation.responses.default;
    const schema = documented?.content?.['application/json']?.schema;
    this.checked.add(`${found.name} → ${answer.status}`);
    const empty = answer.text !== undefined ? answer.text === '' : answer.body === undefined;
    if (!documented) this.mismatches.push(`${found.name}: status ${answer.status} is not documented`);
    else if (schema) {
      const validate = this.validatorFor(schema);
      if (!validate(answer.body))
        this.mismatches.push(`${found.name} → ${answer.status}: ${this.ajv.errorsText(validate.errors)}\n  body: ${JSON.stringify(answer.body).slice(0, 400)}`);
    } else if (!empty && answer.status !== 302) this.mismatches.push(`${found.name} → ${answer.status}: a body where the document says none`);
  }

  /** Checks the answer of a pending call (a supertest request) when it arrives, and passes it on. */
  async checking<T extends Answer>(method: HttpMethod, url: string, pending: PromiseLike<T>): Promise<T> {
    const answer = await pending;
    this.check(method, url, answer);
    return answer;
  }

  private validatorFor(schema: object): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      // `#/components/...` references point into the document's components.
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/')) as object);
      this.validators.set(schema, validate);
    }
    return validate;
  }
}
