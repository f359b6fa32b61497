import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { runService } from '@dc/platform';
import { RequestsModule } from './app/requests.module';

void runService('requests', [RequestsModule]);
