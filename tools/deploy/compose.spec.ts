// docker-compose.yml against the compose specification and the deployment contract (deploy-contract.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Topic } from '@dc/contracts';
import { compose, composeServices, composeValidator, isDevInterpolation, isOneShot, text } from './compose-file';
import { BACKENDS, DRIVERS, looksSecret, REQUIRED_ENV, root, SERVICES } from './deploy-contract';

describe('docker-compose.yml', () => {
  it('is valid against the compose specification schema', () => {
    const validate = composeValidator();
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('is checked by a validator that does reject a broken file', () => {
    const validate = composeValidator();
    const broken = { services: { gateway: { ...compose.services.gateway, depends_on: { identity: { condition: 'whenever' } } } } };
    expect(validate(broken)).toBe(false);
    expect(validate({ services: { gateway: { image: 'x', healthcheck: { interval: 'ten seconds' } } } })).toBe(false);
    expect(validate({ services: { gateway: { image: 'x', imagee: 'typo' } } })).toBe(false);
  });

  it('runs the seven services from the one image built by deploy/Dockerfile', () => {
    for (const name of Object.keys(SERVICES)) {
      const service = compose.services[name];
      expect({ name, image: service?.image, build: service?.build }).toEqual({
        name,
        image: 'data-catalogue:dev',
        build: { context: '.', dockerfile: 'deploy/Dockerfile' },
      });
      expect({ name, SERVICE: text(service.environment?.SERVICE), PORT: text(service.environment?.PORT) }).toEqual({
        name,
        SERVICE: name,
        PORT: String(SERVICES[name]),
      });
      expect({ name, readOnly: service.read_only }).toEqual({ name, readOnly: true });
    }
  });

  it('gives every long-running service a healthcheck and every one-shot job a completion condition', () => {
    for (const [name, service] of composeServices) {
      if (isOneShot(service)) continue;
      expect({ name, healthcheck: Boolean(service.healthcheck?.test) && !service.healthcheck?.disable }).toEqual({ name, healthcheck: true });
    }
    const appCheck = compose.services.gateway.healthcheck?.test;
    expect(appCheck).toEqual(['CMD', 'node', 'deploy/healthcheck.mjs']);
    for (const [name, service] of composeServices) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency];
        expect({ name, dependency, exists: Boolean(target) }).toEqual({ name, dependency, exists: true });
        const expected = isOneShot(target) ? 'service_completed_successfully' : 'service_healthy';
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: expected });
      }
    }
  });

  it('configures every service for the distributed drivers', () => {
    for (const name of Object.keys(SERVICES)) {
      const env = compose.services[name].environment ?? {};
      expect({ name, missing: REQUIRED_ENV.filter((key) => text(env[key]) === undefined) }).toEqual({ name, missing: [] });
      expect({ name, drivers: Object.fromEntries(Object.keys(DRIVERS).map((key) => [key, env[key]])) }).toEqual({ name, drivers: DRIVERS });
      const hosts = {
        KAFKA_BROKERS: text(env.KAFKA_BROKERS),
        S3_ENDPOINT: text(env.S3_ENDPOINT),
        ELASTICSEARCH_URL: text(env.ELASTICSEARCH_URL),
        SMTP_URL: text(env.SMTP_URL),
      };
      for (const [key, value] of Object.entries(hosts)) {
        const host = (value ?? '').replace(/^\w+:\/\//, '').split(/[:/,]/)[0];
        expect({ name, key, hostIsAComposeService: host in compose.services }).toEqual({ name, key, hostIsAComposeService: true });
      }
    }
  });

  it('gives each backend service its own database role and schema, and the gateway none', () => {
    for (const name of BACKENDS) {
      const url = text(compose.services[name].environment?.DATABASE_URL) ?? '';
      expect({ name, url }).toEqual({ name, url: expect.stringMatching(new RegExp(`^postgres://${name}:\\$\\{[^}]+\\}@postgres:5432/datacatalogue$`)) });
    }
    expect(compose.services.gateway.environment?.DATABASE_URL).toBeUndefined();
    const init = readFileSync(path.join(root, 'deploy/postgres/10-service-schemas.sh'), 'utf8');
    const roles = /for service in ([\w ]+); do/.exec(init)?.[1].split(' ');
    expect(roles).toEqual(BACKENDS);
    expect(compose.services.postgres.environment?.SERVICE_DB_PASSWORD).toEqual(expect.stringMatching(/^\$\{SERVICE_DB_PASSWORD:-dev-only/));
    expect(compose.services.postgres.image).toBe('postgres:17');
  });

  it('points the gateway at every service and waits for all of them', () => {
    const gateway = compose.services.gateway;
    expect(gateway.environment?.RUN_MODE).toBe('distributed');
    for (const name of BACKENDS) {
      expect({ name, url: gateway.environment?.[`SERVICE_URLS_${name.toUpperCase()}`] }).toEqual({ name, url: `http://${name}:${SERVICES[name]}` });
      expect({ name, dependsOn: gateway.depends_on?.[name]?.condition }).toEqual({ name, dependsOn: 'service_healthy' });
    }
    expect(Object.keys(gateway.environment ?? {}).filter((key) => key.startsWith('SERVICE_URLS_'))).toHaveLength(BACKENDS.length);
  });

  it('keeps secrets out of the file: only ${VAR} references with marked development defaults', () => {
    for (const [name, service] of composeServices) {
      for (const [key, raw] of Object.entries(service.environment ?? {})) {
        const value = text(raw) ?? '';
        if (looksSecret(key)) expect({ name, key, value, devInterpolation: isDevInterpolation(value) }).toEqual({ name, key, value, devInterpolation: true });
        const password = /:\/\/[^/:@]+:([^@]+)@/.exec(value)?.[1];
        if (password) expect({ name, key, password, devInterpolation: isDevInterpolation(password) }).toEqual({ name, key, password, devInterpolation: true });
      }
    }
    const key = /ENCRYPTION_KEY:-([^}]+)\}/.exec(String(compose.services.gateway.environment?.ENCRYPTION_KEY))?.[1] ?? '';
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
  });

  it('runs Kafka as a single KRaft node and creates one topic per contract topic', () => {
    const kafka = compose.services.kafka;
    expect(kafka.image).toMatch(/^apache\/kafka:4\./);
    expect(kafka.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(String(kafka.environment?.CLUSTER_ID)).toMatch(/^[\w-]{22}$/);
    const zookeeper = composeServices.filter(([name, service]) =>
      /zookeeper/i.test(`${name} ${service.image} ${Object.keys(service.environment ?? {}).join(' ')}`),
    );
    expect(zookeeper).toEqual([]);
    const topics = String(compose.services['kafka-topics'].environment?.TOPICS).split(' ').sort();
    expect(topics).toEqual(Object.values(Topic).sort());
  });

  it('runs Elasticsearch 9 as a single node, MinIO with its bucket, and an SMTP catcher', () => {
    const es = compose.services.elasticsearch;
    expect(es.image).toMatch(/elasticsearch:9\.\d+\.\d+$/);
    expect(es.environment).toMatchObject({ 'discovery.type': 'single-node', 'xpack.security.enabled': 'false' });
    expect(compose.services.minio.image).toMatch(/^minio\/minio:/);
    expect(compose.services['minio-bucket'].environment?.S3_BUCKET).toBe(compose.services.catalogue.environment?.S3_BUCKET);
    expect(String(compose.services['minio-bucket'].command)).toContain('mc mb --ignore-existing "dc/$$S3_BUCKET"');
    expect(compose.services.mailpit.image).toMatch(/^axllent\/mailpit:/);
    expect(compose.services.catalogue.environment?.SMTP_URL).toBe('smtp://mailpit:1025');
  });
});
