import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { runService } from '@dc/platform';
import { RelationsModule } from './app/relations.module';

void runService('relations', [RelationsModule]);
