// The deployment contract the distributed-mode artefacts are checked against (compose.spec.ts,
// k8s.spec.ts, deploy-dockerfile.spec.ts, healthcheck.spec.ts, deploy.spec.ts): the services and their
// ports, the environment every service needs, the distributed drivers, what must come from a secret.
import path from 'node:path';

export const root = path.resolve(__dirname, '../..');
export const SERVICES: Record<string, number> = { gateway: 8080, identity: 3001, catalogue: 3002, search: 3003, requests: 3004, relations: 3005, jobs: 3006 };
export const BACKENDS = Object.keys(SERVICES).filter((name) => name !== 'gateway');
export const REQUIRED_ENV = [
  'NODE_ENV',
  'PORT',
  'SERVICE',
  'LOG_LEVEL',
  'PUBLIC_URL',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'BUS_DRIVER',
  'KAFKA_BROKERS',
  'STORAGE_DRIVER',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_BUCKET',
  'SEARCH_DRIVER',
  'ELASTICSEARCH_URL',
  'MAIL_DRIVER',
  'SMTP_URL',
];
export const DRIVERS = { BUS_DRIVER: 'kafka', STORAGE_DRIVER: 's3', SEARCH_DRIVER: 'elasticsearch', MAIL_DRIVER: 'smtp' };
/** Values that must come from a Kubernetes Secret (URLs with credentials included). */
export const K8S_SECRET_ENV = ['JWT_SECRET', 'ENCRYPTION_KEY', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'DATABASE_URL', 'SMTP_URL'];
export const looksSecret = (name: string) => /SECRET|PASSWORD|TOKEN|_KEY$|_KEY_ID$|ROOT_USER/.test(name);
export const HEALTH = { ready: '/health/ready', live: '/health/live' };
