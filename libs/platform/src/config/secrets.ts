import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppConfig } from './config';

/**
 * In embedded mode a newcomer sets nothing: the JWT and encryption keys are generated once and
 * kept under DATA_DIR (mode 0600), so tokens and encrypted credentials survive restarts.
 * Distributed mode requires them from configuration (checked in loadConfig).
 */
export function withEmbeddedSecrets(config: AppConfig): AppConfig {
  if (config.JWT_SECRET && config.ENCRYPTION_KEY) return config;
  const dir = path.resolve(config.DATA_DIR);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'secrets.json');
  let stored: { JWT_SECRET?: string; ENCRYPTION_KEY?: string } = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8'));
  const secrets = {
    JWT_SECRET: config.JWT_SECRET ?? stored.JWT_SECRET ?? randomBytes(48).toString('base64url'),
    ENCRYPTION_KEY: config.ENCRYPTION_KEY ?? stored.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
  };
  if (secrets.JWT_SECRET !== stored.JWT_SECRET || secrets.ENCRYPTION_KEY !== stored.ENCRYPTION_KEY) {
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return { ...config, ...secrets };
}
