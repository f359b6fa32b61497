import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { createLogger, installProcessErrorPolicy, loadConfigOrExit } from '@dc/platform';
import { startDistributedGateway } from './app/distributed';
import { startEmbedded } from './app/embedded';

async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  // One request's unheard error must not stop the product for everyone (see the policy).
  const errorPolicy = installProcessErrorPolicy(logger);
  try {
    if (config.RUN_MODE === 'distributed') await startDistributedGateway(config, logger);
    else await startEmbedded(config, logger);
    errorPolicy.markStarted();
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
}

void main();
