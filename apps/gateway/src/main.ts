import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { ConfigError, createLogger, loadConfig } from '@dc/platform';
import { startDistributedGateway } from './app/distributed';
import { startEmbedded } from './app/embedded';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  try {
    if (config.RUN_MODE === 'distributed') await startDistributedGateway(config, logger);
    else await startEmbedded(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
}

void main();
