import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, withEmbeddedSecrets } from '../index';

describe('configuration', () => {
  it('defaults to the embedded mode with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      RUN_MODE: 'embedded',
      PORT: 8080,
      DATA_DIR: './.data',
      BUS_DRIVER: 'in-process',
      STORAGE_DRIVER: 'fs',
      SEARCH_DRIVER: 'in-process',
      MAIL_DRIVER: 'file',
    });
    expect(config.EMBEDDED_PG_PORT).not.toBe(5432);
  });

  it('searches with the in-process index in embedded mode and PostgreSQL in distributed mode, unless told otherwise', () => {
    const distributed = {
      RUN_MODE: 'distributed',
      JWT_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
      PUBLIC_URL: 'https://catalogue.example.com',
    };
    expect(loadConfig({}).SEARCH_DRIVER).toBe('in-process');
    expect(loadConfig(distributed).SEARCH_DRIVER).toBe('postgres');
    expect(loadConfig({ SEARCH_DRIVER: 'postgres' }).SEARCH_DRIVER).toBe('postgres');
    expect(loadConfig({ ...distributed, SEARCH_DRIVER: 'in-process' }).SEARCH_DRIVER).toBe('in-process');
    expect(() => loadConfig({ SEARCH_DRIVER: 'lucene' })).toThrow(/SEARCH_DRIVER/);
  });

  it('names the variable of every invalid setting', () => {
    expect(() => loadConfig({ BUS_DRIVER: 'carrier-pigeon' })).toThrow(/BUS_DRIVER/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ EMBEDDED_PG_PORT: '5432' })).toThrow(/EMBEDDED_PG_PORT: must not be 5432/);
    try {
      loadConfig({ BUS_DRIVER: 'kafka', STORAGE_DRIVER: 's3', SEARCH_DRIVER: 'elasticsearch' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['KAFKA_BROKERS', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'ELASTICSEARCH_URL']) expect(message).toContain(name);
    }
  });

  it('bounds merge results and merged records by default, and refuses limits that are not positive whole numbers', () => {
    expect(loadConfig({})).toMatchObject({
      MERGE_MAX_ROWS: 2_000_000,
      MERGE_MAX_BYTES: 256 * 1024 * 1024,
      DERIVED_STORAGE_QUOTA_BYTES: 2 * 1024 * 1024 * 1024,
    });
    expect(loadConfig({ MERGE_MAX_ROWS: '5000', MERGE_MAX_BYTES: '1048576', DERIVED_STORAGE_QUOTA_BYTES: '4194304' })).toMatchObject({
      MERGE_MAX_ROWS: 5000,
      MERGE_MAX_BYTES: 1048576,
      DERIVED_STORAGE_QUOTA_BYTES: 4194304,
    });
    expect(() => loadConfig({ MERGE_MAX_ROWS: '0' })).toThrow(/MERGE_MAX_ROWS/);
    expect(() => loadConfig({ MERGE_MAX_ROWS: '1e21' })).toThrow(/MERGE_MAX_ROWS/);
    expect(() => loadConfig({ MERGE_MAX_BYTES: 'lots' })).toThrow(/MERGE_MAX_BYTES/);
    expect(() => loadConfig({ DERIVED_STORAGE_QUOTA_BYTES: '-1' })).toThrow(/DERIVED_STORAGE_QUOTA_BYTES/);
  });

  it('requires the secrets in distributed mode', () => {
    expect(() => loadConfig({ RUN_MODE: 'distributed' })).toThrow(/JWT_SECRET[\s\S]*ENCRYPTION_KEY/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(/ENCRYPTION_KEY: must be 32 bytes/);
  });

  it('requires PUBLIC_URL in distributed mode, where every process has its own port', () => {
    expect(() => loadConfig({ RUN_MODE: 'distributed' })).toThrow(/PUBLIC_URL: required when RUN_MODE=distributed/);
    expect(() => loadConfig({ RUN_MODE: 'distributed', PUBLIC_URL: 'catalogue.example.com' })).toThrow(/PUBLIC_URL: Invalid URL/);
    const distributed = { RUN_MODE: 'distributed', JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') };
    expect(loadConfig({ ...distributed, PUBLIC_URL: 'https://catalogue.example.com' }).PUBLIC_URL).toBe('https://catalogue.example.com');
    // The embedded mode serves everything on one port, so it can still default its links to it.
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
  });

  it('trusts X-Forwarded-For from loopback only unless TRUST_PROXY names other proxies', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, 192.0.2.7, fd00::/8, uniquelocal' }).TRUST_PROXY).toBe(
      'loopback, 10.0.0.0/8, 192.0.2.7, fd00::/8, uniquelocal',
    );
    for (const bad of ['everyone', '10.0.0.0/33', '10.0.0/8', 'loopback,,', 'true'])
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY: must be a comma-separated list/);
  });

  it('switches mail to SMTP when SMTP_URL is set, and reads service URLs', () => {
    const config = loadConfig({
      SMTP_URL: 'smtp://mail:25',
      SERVICE_URLS_IDENTITY: 'http://identity:3001',
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: 'a:9092, b:9092',
    });
    expect(config.MAIL_DRIVER).toBe('smtp');
    expect(config.SERVICE_URLS.identity).toBe('http://identity:3001');
    expect(config.SERVICE_URLS.catalogue).toBe('http://127.0.0.1:3002');
    expect(config.KAFKA_BROKERS).toEqual(['a:9092', 'b:9092']);
  });

  it('generates embedded secrets once and keeps them across restarts', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dc-secrets-'));
    const first = withEmbeddedSecrets(loadConfig({ DATA_DIR: dir }));
    const second = withEmbeddedSecrets(loadConfig({ DATA_DIR: dir }));
    expect(first.JWT_SECRET).toHaveLength(64);
    expect(Buffer.from(first.ENCRYPTION_KEY!, 'base64')).toHaveLength(32);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
    expect(JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')).ENCRYPTION_KEY).toBe(first.ENCRYPTION_KEY);
  });
});
