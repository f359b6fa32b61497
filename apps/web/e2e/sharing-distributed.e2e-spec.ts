import { rmSync } from 'node:fs';
import { describeInfra, isChromiumInstalled, isKcatInstalled, startDistributedProduct } from '@dc/testing';
import type { RealProduct } from './real-product';
import { sharingStory } from './sharing-story';
import { ensureWebBuild } from './web-server';

const missing = !isKcatInstalled()
  ? 'kcat is not installed (apt-get install kcat)'
  : !isChromiumInstalled()
    ? 'chromium is not installed (apt-get install chromium)'
    : true;

/**
 * The same data-sharing story (sharing-story.ts) in distributed mode: the gateway and six services
 * as separate processes (requests and catalogue apart, events over the Kafka mock cluster), files
 * in s3rver, mail as files; the browser uses the web app the gateway serves.
 */
describeInfra('data sharing end to end in distributed mode (seven processes, Kafka, S3, a browser)', missing, () => {
  jest.setTimeout(300_000);
  sharingStory('sharing-distributed', async (): Promise<RealProduct> => {
    ensureWebBuild();
    const product = await startDistributedProduct('dc_sharing_distributed');
    // The services' DATA_DIR: the file mailer writes under mail/ there, as embedded mode does.
    const dataDir = product.env.DATA_DIR;
    return {
      base: product.gatewayUrl,
      dataDir,
      stop: async () => {
        await product.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  });
});
