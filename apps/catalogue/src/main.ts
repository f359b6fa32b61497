import '@dc/platform/node-version-guard';
import 'reflect-metadata';
import { runService } from '@dc/platform';
import { CatalogueModule } from './app/catalogue.module';

void runService('catalogue', [CatalogueModule]);
