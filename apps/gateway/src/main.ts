import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { createLogger, loadConfigOrExit } from '@dc/platform';
import { startDistributedGateway } from './app/distributed';
import { startEmbedded } from './app/embedded';

async function main() {
  const config = loadConfigOrExit();
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
