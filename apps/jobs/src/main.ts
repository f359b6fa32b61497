import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { runService } from '@dc/platform';
import { JobsModule } from './app/jobs.module';

void runService('jobs', [JobsModule]);
