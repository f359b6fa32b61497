import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { runService } from '@dc/platform';
import { SearchModule } from './app/search.module';

void runService('search', [SearchModule]);
