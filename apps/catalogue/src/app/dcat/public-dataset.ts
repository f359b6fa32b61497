import type { AccessRight } from './dcat-vocabulary';

/**
 * A record as an anonymous visitor sees it, the one model both publications (DCAT-AP and schema.org)
 * are written from: nothing here is more than GET /api/records/{id} shows without signing in.
 */
export interface PublicDistribution {
  id: string;
  title: string;
  contentType: string;
  byteSize: number;
  issued: Date;
  /** Only when an anonymous visitor may download the file (Open access, file kept, lineage holds). */
  downloadUrl: string | null;
}

export interface PublicDataset {
  id: string;
  title: string;
  description: string;
  keywords: string[];
  issued: Date;
  modified: Date;
  publisher: { id: string; name: string };
  /** PUBLIC: Open access; RESTRICTED: access on request. */
  accessRights: AccessRight;
  /** The access fee, when the owner asks one. */
  fee: { amount: number; currency: string } | null;
  distributions: PublicDistribution[];
}

/** Where the publication's resources live, all under the product's public address. */
export class DcatUrls {
  readonly base: string;

  constructor(baseUrl: string) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  get catalog(): string {
    return `${this.base}/api/dcat/catalog`;
  }

  catalogPage(page: number, pageSize: number, defaultPageSize: number): string {
    return `${this.catalog}?page=${page}${pageSize === defaultPageSize ? '' : `&page_size=${pageSize}`}`;
  }

  dataset(id: string): string {
    return `${this.base}/api/dcat/datasets/${id}`;
  }

  distribution(id: string, fileId: string): string {
    return `${this.dataset(id)}#distribution-${fileId}`;
  }

  /** Answers 302 to a fresh signed link while anonymous visitors may download the file. */
  download(id: string, fileId: string): string {
    return `${this.dataset(id)}/distributions/${fileId}/download`;
  }

  /** The record's page in the web app (the gateway serves it with its title, description and schema.org JSON-LD). */
  recordPage(id: string): string {
    return `${this.base}/records/${id}`;
  }

  publisher(organisationId: string): string {
    return `${this.catalog}#publisher-${encodeURIComponent(organisationId)}`;
  }

  contact(id: string): string {
    return `${this.dataset(id)}#contact`;
  }

  get catalogPublisher(): string {
    return `${this.catalog}#publisher`;
  }
}

/** DCAT-AP makes a description mandatory; a record may have none. */
export const descriptionOf = (dataset: Pick<PublicDataset, 'description'>) => dataset.description.trim() || 'No description was given for this dataset.';
