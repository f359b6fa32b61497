import { asProcesses, describeInfra, isKcatInstalled } from '@dc/testing';
import { dcatThroughTheGateway } from './dcat-distributed';
import { distributedModeTests } from './distributed-suite';

/** The distributed mode on this machine, each service a Node process (see startDistributedProduct). */
describeInfra('distributed mode (seven processes, Kafka, S3, PostgreSQL)', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () =>
  distributedModeTests(asProcesses, dcatThroughTheGateway),
);
