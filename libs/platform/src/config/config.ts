import { isIP } from 'node:net';
import { z } from 'zod';

export const SERVICE_NAMES = ['identity', 'catalogue', 'search', 'requests', 'relations', 'jobs'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Default ports of the services in distributed mode (the gateway listens on PORT, 8080). */
export const SERVICE_PORTS: Record<ServiceName, number> = {
  identity: 3001,
  catalogue: 3002,
  search: 3003,
  requests: 3004,
  relations: 3005,
  jobs: 3006,
};

const optionalUrl = z.string().url().optional();

/** Express's names for address ranges, usable in TRUST_PROXY. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `loopback, 10.0.0.0/8, 192.0.2.7`: range names, IP addresses and CIDR ranges. */
export function isTrustedProxyList(value: string): boolean {
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every((entry) => {
    if (PROXY_RANGE_NAMES.includes(entry)) return true;
    const [address, bits, ...rest] = entry.split('/');
    const version = isIP(address);
    if (!version || rest.length) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
  });
}

/** `10.0.0.0/8, 127.0.0.1, minio.internal`: IP addresses, CIDR ranges and host names (empty allows none). */
export function isEndpointAllowList(value: string): boolean {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.every((entry) => {
    const [address, bits, ...rest] = entry.split('/');
    const version = isIP(address);
    if (!version) return bits === undefined && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(entry);
    return !rest.length && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128)));
  });
}

const boolFromEnv = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every setting the product reads from its environment, validated once at start-up. */
const rawSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  RUN_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  EMBEDDED_PG_PORT: z.coerce
    .number()
    .int()
    .min(1024)
    .max(65535)
    .refine((p) => p !== 5432, 'must not be 5432')
    .default(54329),

  BUS_DRIVER: z.enum(['in-process', 'kafka']).default('in-process'),
  KAFKA_BROKERS: z.string().optional(),
  KAFKA_CLIENT_ID: z.string().default('data-catalogue'),

  STORAGE_DRIVER: z.enum(['fs', 's3']).default('fs'),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_BUCKET: z.string().default('data-catalogue'),

  // Default by run mode (loadConfig): the in-process index in embedded mode, PostgreSQL in distributed mode.
  SEARCH_DRIVER: z.enum(['in-process', 'postgres', 'elasticsearch']).optional(),
  ELASTICSEARCH_URL: optionalUrl,

  MAIL_DRIVER: z.enum(['file', 'smtp']).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Data Catalogue <no-reply@localhost>'),

  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .refine(isTrustedProxyList, `must be a comma-separated list of IP addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join(', ')}`),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024 * 1024),
  /** Files of at least this many bytes are profiled in a worker thread, so the API of the same process keeps answering. */
  EXTRACTION_THREAD_MIN_BYTES: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(8 * 1024 * 1024),
  /** A large CSV is described from a copy of its bytes while they are stored, so its statistics are ready as its upload ends. */
  EXTRACT_WHILE_UPLOADING: boolFromEnv.default(true),
  /** How much nicer than the process that worker thread runs (Linux), so the API's thread comes first for the CPU; 0 keeps its priority. */
  EXTRACTION_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(5),
  /**
   * Worker threads that describe a large CSV (32 MiB and more) beside the service's own thread,
   * which then stays free for API calls; 1 describes it in the service's thread.
   */
  EXTRACTION_THREADS: z.coerce.number().int().min(1).max(16).default(2),
  /** DCAT imports (docs/dcat-harvesting.md): the most bytes of a catalogue read (URL or upload), datasets imported at once, and seconds to fetch a URL. */
  HARVEST_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  HARVEST_MAX_DATASETS: z.coerce.number().int().positive().default(1000),
  HARVEST_FETCH_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(30),
  /**
   * User-supplied endpoints (database hosts of connections, S3 endpoints of cloud accounts) may not
   * be loopback, private or link-local addresses, except those listed here by the operator.
   */
  ALLOWED_PRIVATE_ENDPOINTS: z.string().default('').refine(isEndpointAllowList, 'must be a comma-separated list of IP addresses, CIDR ranges or host names'),
  SERVE_WEB: boolFromEnv.default(true),
  /** Origins allowed to call the API from a browser (comma-separated); none by default. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .refine(
      (v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean)
          .every((o) => /^https?:\/\/[^/\s]+\/?$/i.test(o)),
      'must be a comma-separated list of origins such as https://app.example.com',
    ),
  /** Slow clients (libs/platform security/http-security.ts). */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10_000),
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
  /**
   * How long an idle kept-alive connection stays open (Node's default is 5 s). Longer than the
   * idle timeouts of clients and load balancers in front (60 s is common), so the client always
   * retires a connection first and never sends a request into one the server is closing.
   */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(65_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(64),
  /**
   * A merge's result stops at this many rows or bytes (a key repeated on both sides multiplies
   * rows); defaults argued in docs/jobs.md, "Limits".
   */
  MERGE_MAX_ROWS: z.coerce
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER - 1)
    .default(2_000_000),
  MERGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .default(256 * 1024 * 1024),
  /** Bytes of merged records each account may keep; its remainder also bounds a merge's bytes. */
  DERIVED_STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .default(2 * 1024 * 1024 * 1024),
  /**
   * Signed webhooks (docs/webhooks.md): each delivery attempt has WEBHOOK_ATTEMPT_TIMEOUT_MS; a failed
   * one is tried again after WEBHOOK_RETRY_BASE_MS times 3 to the power of the failures before it,
   * at most WEBHOOK_RETRY_MAX_MS apart; after WEBHOOK_MAX_ATTEMPTS attempts it is dead-lettered. At
   * most WEBHOOK_CONCURRENCY deliveries are sent at once per jobs process, looked for every WEBHOOK_POLL_MS.
   */
  WEBHOOK_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(0).default(10_000),
  WEBHOOK_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(6 * 60 * 60 * 1000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).default(2_000),
});

export type RawConfig = z.infer<typeof rawSchema>;

const serviceUrlVariable = (name: ServiceName) => `SERVICE_URLS_${name.toUpperCase()}`;

/** Every variable loadConfig reads, so deployment manifests can be checked against it (tools/deploy). */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(rawSchema.shape), ...SERVICE_NAMES.map(serviceUrlVariable)];

export interface AppConfig extends Omit<RawConfig, 'MAIL_DRIVER' | 'KAFKA_BROKERS' | 'SEARCH_DRIVER'> {
  MAIL_DRIVER: 'file' | 'smtp';
  SEARCH_DRIVER: NonNullable<RawConfig['SEARCH_DRIVER']>;
  KAFKA_BROKERS: string[];
  /** Where the gateway finds each service in distributed mode (SERVICE_URLS_<NAME>). */
  SERVICE_URLS: Record<ServiceName, string>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; every problem names its variable so start-up stops with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = rawSchema.safeParse(env);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push(`${issue.path.join('.')}: ${issue.message}${env[String(issue.path[0])] !== undefined ? ` (got "${env[String(issue.path[0])]}")` : ''}`);
    throw new ConfigError(problems);
  }
  const raw = parsed.data;
  const brokers = (raw.KAFKA_BROKERS ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (raw.BUS_DRIVER === 'kafka' && brokers.length === 0) problems.push('KAFKA_BROKERS: required when BUS_DRIVER=kafka (comma-separated host:port list)');
  if (raw.STORAGE_DRIVER === 's3') {
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!raw[name]) problems.push(`${name}: required when STORAGE_DRIVER=s3`);
    }
  }
  // The in-process index is the faster one in one process (docs/benchmarks.md); in distributed mode
  // every search replica would hold the whole index in memory, so PostgreSQL stays the default there.
  const searchDriver = raw.SEARCH_DRIVER ?? (raw.RUN_MODE === 'embedded' ? 'in-process' : 'postgres');
  if (searchDriver === 'elasticsearch' && !raw.ELASTICSEARCH_URL) problems.push('ELASTICSEARCH_URL: required when SEARCH_DRIVER=elasticsearch');
  const mailDriver = raw.MAIL_DRIVER ?? (raw.SMTP_URL ? 'smtp' : 'file');
  if (mailDriver === 'smtp' && !raw.SMTP_URL) problems.push('SMTP_URL: required when MAIL_DRIVER=smtp');
  if (raw.RUN_MODE === 'distributed') {
    if (!raw.JWT_SECRET) problems.push('JWT_SECRET: required when RUN_MODE=distributed (at least 32 characters)');
    if (!raw.ENCRYPTION_KEY) problems.push('ENCRYPTION_KEY: required when RUN_MODE=distributed (32 bytes, base64)');
    // Each process has its own port; links in mail must point at the gateway users reach.
    if (!raw.PUBLIC_URL)
      problems.push('PUBLIC_URL: required when RUN_MODE=distributed (the address users reach the gateway at, e.g. https://catalogue.example.com)');
  }
  const serviceUrls = {} as Record<ServiceName, string>;
  for (const name of SERVICE_NAMES) {
    const variable = serviceUrlVariable(name);
    const value = env[variable];
    if (value !== undefined && !z.string().url().safeParse(value).success) problems.push(`${variable}: must be a URL (got "${value}")`);
    serviceUrls[name] = value ?? `http://127.0.0.1:${SERVICE_PORTS[name]}`;
  }
  if (problems.length) throw new ConfigError(problems);
  return { ...raw, MAIL_DRIVER: mailDriver, SEARCH_DRIVER: searchDriver, KAFKA_BROKERS: brokers, SERVICE_URLS: serviceUrls };
}

/**
 * loadConfig for an entry point: on invalid configuration it prints the problems (each naming its
 * variable) and stops the process with exit code 1. `extraProblems` adds what only that entry point needs.
 */
export function loadConfigOrExit(extraProblems: (config: AppConfig) => string[] = () => []): AppConfig {
  try {
    const config = loadConfig();
    const problems = extraProblems(config);
    if (problems.length) throw new ConfigError(problems);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
