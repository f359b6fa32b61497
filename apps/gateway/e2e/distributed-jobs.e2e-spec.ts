import { asProcesses, describeInfra, isKcatInstalled } from '@dc/testing';
import { distributedJobsTests } from './distributed-jobs-suite';

describeInfra('merge jobs in distributed mode (two job worker processes, Kafka, S3)', isKcatInstalled() || 'kcat is not installed (apt-get install kcat)', () =>
  distributedJobsTests(asProcesses),
);
