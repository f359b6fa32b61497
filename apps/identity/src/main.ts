import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { runService } from '@dc/platform';
import { IdentityModule } from './app/identity.module';

void runService('identity', [IdentityModule]);
