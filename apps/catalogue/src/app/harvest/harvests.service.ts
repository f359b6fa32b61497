import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createEvent, JobStarted } from '@dc/contracts';
import { APP_CONFIG, type AppConfig, type AuthUser, currentCorrelationId, FieldValidationError } from '@dc/platform';
import { CatalogueInstance } from '../recovery/catalogue-instance';
import { UnitOfWork } from '../unit-of-work/unit-of-work';
import { CatalogueFetch, CatalogueFetchError } from './catalogue-fetch';
import type { UploadedCatalogue } from './catalogue-upload';
import { DcatReadError, formatOf, readDcat } from './dcat-reader';
import { HarvestRunner } from './harvest-runner';
import { HarvestsRepository } from './harvests.repository';

/** What POST /api/harvests/ was sent: the catalogue's address, or the catalogue itself. */
export type HarvestInput = { url: string } | { upload: UploadedCatalogue };

/** An upload has no address of its own: its relative IRIs resolve against this and its file name. */
const UPLOAD_BASE = 'urn:dc:upload:';

/**
 * DCAT imports (docs/dcat-harvesting.md): the catalogue is fetched (through the address guard) or
 * received, and read, within the request, so bad input is refused at once and nothing is created;
 * its datasets are then written down with the job (job.started, for the Jobs page) in one
 * transaction, and imported in the background by HarvestRunner.
 */
@Injectable()
export class HarvestsService {
  constructor(
    private readonly fetcher: CatalogueFetch,
    private readonly harvests: HarvestsRepository,
    private readonly work: UnitOfWork,
    private readonly instance: CatalogueInstance,
    private readonly runner: HarvestRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get maxBytes(): number {
    return this.config.HARVEST_MAX_BYTES;
  }

  async start(user: AuthUser, input: HarvestInput): Promise<{ job_id: string; source: string; datasets: number; detail: string }> {
    const field = 'url' in input ? 'url' : 'file';
    const document =
      'url' in input
        ? { ...(await this.fetch(input.url)), fileName: '' }
        : {
            text: input.upload.text,
            contentType: input.upload.contentType,
            fileName: input.upload.fileName,
            // Stable per file name: relative IRIs of a file uploaded again name the same datasets (idempotency).
            url: `${UPLOAD_BASE}${encodeURIComponent(input.upload.fileName)}/`,
          };
    const source = 'url' in input ? input.url.trim() : input.upload.fileName;
    let datasets;
    try {
      datasets = await readDcat(document.text, formatOf(document.text, document.contentType, document.fileName || new URL(document.url).pathname), {
        maxDatasets: this.config.HARVEST_MAX_DATASETS,
        baseIri: document.url,
      });
    } catch (error) {
      if (error instanceof DcatReadError) throw new FieldValidationError({ [field]: [error.message] });
      throw error;
    }
    const jobId = randomUUID();
    const total = datasets.length;
    await this.work.transaction(async () => {
      await this.harvests.insertJob(
        { jobId, owner: user, source, datasets, done: 0, outcome: { total, created: 0, updated: 0, failed: 0, failures: [] }, status: 'running' },
        this.instance.id,
      );
      await this.work.publish(
        createEvent(
          JobStarted,
          jobId,
          {
            jobId,
            type: 'HARVEST',
            owner: { userId: user.id, username: user.username, organisationId: user.organisationId, clientType: user.clientType, groups: user.groups },
            info: `Importing ${total} dataset${total === 1 ? '' : 's'} from ${source}.`,
            source,
            total,
          },
          { correlationId: currentCorrelationId() },
        ),
      );
    });
    this.runner.start(jobId);
    return { job_id: jobId, source, datasets: total, detail: `The import of ${total} dataset${total === 1 ? '' : 's'} started: follow it on the Jobs page.` };
  }

  private async fetch(url: string) {
    if (!/^https?:\/\/\S+$/i.test(url.trim()) || url.length > 2048) throw new FieldValidationError({ url: ['Enter a valid http or https URL.'] });
    try {
      return await this.fetcher.fetch(url.trim(), { maxBytes: this.maxBytes, timeoutMs: this.config.HARVEST_FETCH_TIMEOUT_SECONDS * 1000 });
    } catch (error) {
      if (error instanceof CatalogueFetchError) throw new FieldValidationError({ url: [error.message] });
      throw error;
    }
  }
}
