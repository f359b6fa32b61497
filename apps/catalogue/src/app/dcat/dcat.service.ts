import { Inject, Injectable } from '@nestjs/common';
import type { Quad } from 'n3';
import { isUuid, pageOf } from '@dc/contracts';
import { APP_CONFIG, type AppConfig, notFound } from '@dc/platform';
import { LineageService } from '../lineage/lineage.service';
import { summariseMeta } from '../record-model/meta-summary';
import type { CatalogueFile, CatalogueRecord } from '../record-model/record';
import { permissionsFor } from '../record-model/record-access';
import { type RecordStore, RecordsRepository } from '../record-store/records.repository';
import { fileView } from '../record-view/record-view';
import { catalogGraph, datasetGraph } from './dcat-graph';
import { DcatUrls, type PublicDataset } from './public-dataset';
import { schemaOrgDataset, type SchemaOrgDataset } from './schema-org';

/** Harvesters page through the catalogue this many datasets at a time unless they ask (page_size, at most MAX). */
export const DCAT_PAGE_SIZE = 100;
export const DCAT_MAX_PAGE_SIZE = 500;
/** Keywords per dataset: the words an anonymous visitor sees in the record's META, most telling first. */
export const MAX_DCAT_KEYWORDS = 100;

/** The anonymous visitor: what is published is exactly what GET /api/records/{id} shows without signing in. */
const ANONYMOUS = null;

/**
 * The DCAT-AP publication of the records everyone may see (docs/dcat.md). The rule is the one rule of
 * visibility (canViewRecord through permissionsFor, for an anonymous visitor); every field comes from
 * the record's view as that visitor gets it (masked META, docs/metadata-before-access.md).
 */
@Injectable()
export class DcatService {
  readonly urls: DcatUrls;

  constructor(
    private readonly records: RecordsRepository,
    private readonly lineage: LineageService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urls = new DcatUrls(config.PUBLIC_URL ?? `http://localhost:${config.PORT}`);
  }

  /** A page of the catalogue (page from 1; past the last page: the catalogue with no dataset). */
  async catalogPage(query: { page?: unknown; page_size?: unknown }): Promise<Quad[]> {
    const { page, pageSize, offset } = pageOf(query, { size: DCAT_PAGE_SIZE, max: DCAT_MAX_PAGE_SIZE });
    return this.records.read(async (store) => {
      const { count, records } = await store.everyoneVisibleRecords({ offset, limit: pageSize });
      const datasets: PublicDataset[] = [];
      for (const record of records) if (permissionsFor(record, ANONYMOUS).view) datasets.push(await this.publicDataset(store, record));
      const host = new URL(this.urls.base).host;
      return catalogGraph(this.urls, {
        datasets,
        page,
        pageSize,
        defaultPageSize: DCAT_PAGE_SIZE,
        totalItems: count,
        title: `Data Catalogue at ${host}`,
        description: `The datasets that everyone may see in the Data Catalogue at ${host}: their descriptions, keywords, publishers and files, as DCAT-AP 3.0.1.`,
        publisherName: `Data Catalogue at ${host}`,
      });
    });
  }

  /** One record's DCAT; 404 alike for a record that does not exist and one an anonymous visitor may not see. */
  async dataset(id: string): Promise<Quad[]> {
    return datasetGraph(this.urls, await this.visibleDataset(id));
  }

  /** The schema.org Dataset of the record's page (the gateway writes it into the HTML). */
  async schemaOrg(id: string): Promise<SchemaOrgDataset> {
    return schemaOrgDataset(this.urls, await this.visibleDataset(id));
  }

  private visibleDataset(id: string): Promise<PublicDataset> {
    if (!isUuid(id)) throw notFound();
    return this.records.read(async (store) => {
      const record = await store.findRecord(id);
      if (!record || !permissionsFor(record, ANONYMOUS).view) throw notFound();
      return this.publicDataset(store, record);
    });
  }

  private async publicDataset(store: RecordStore, record: CatalogueRecord): Promise<PublicDataset> {
    const files = await store.files(record.id);
    // Download as for GET /api/records/{id}: Open access, unless the record's sources no longer allow it.
    const blocked = (await this.lineage.standing(record)).some((s) => s.blocks);
    const mayDownload = permissionsFor(record, ANONYMOUS).download && !blocked;
    return {
      id: record.id,
      title: record.name,
      description: record.description,
      keywords: keywordsOf(files, mayDownload),
      issued: record.createdAt,
      modified: record.changedAt,
      publisher: { id: record.organisationId, name: record.organisationName },
      accessRights: record.access === 'OP' ? 'PUBLIC' : 'RESTRICTED',
      fee: record.accessFee ? { amount: record.accessFee, currency: record.currency } : null,
      distributions: files.map((file) => ({
        id: file.id,
        title: file.name,
        contentType: file.contentType,
        byteSize: file.size,
        issued: file.createdAt,
        downloadUrl: mayDownload && file.storageKey ? this.urls.download(record.id, file.id) : null,
      })),
    };
  }
}

/** The word sets of the files' META as an anonymous visitor is shown it (fileView masks cells). */
function keywordsOf(files: CatalogueFile[], mayDownload: boolean): string[] {
  const words = new Map<string, string>();
  for (const file of files) {
    for (const word of summariseMeta(fileView(file, mayDownload).META).words) {
      const key = word.trim().toLowerCase();
      if (key && !words.has(key)) words.set(key, word.trim());
      if (words.size >= MAX_DCAT_KEYWORDS) return [...words.values()];
    }
  }
  return [...words.values()];
}
