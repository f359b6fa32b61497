import 'reflect-metadata';
import { runService } from '@dc/platform';
import { RequestsModule } from './app/requests.module';

void runService('requests', [RequestsModule]);
