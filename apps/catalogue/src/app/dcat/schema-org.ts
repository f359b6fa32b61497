import { z } from 'zod';
import { NS } from './dcat-vocabulary';
import { type DcatUrls, descriptionOf, type PublicDataset } from './public-dataset';

/**
 * The schema.org Dataset of a public record, for search engines: the gateway writes it into the
 * HTML of the record's page (with its title and description) so crawlers need no JavaScript.
 * An inline @context (@vocab) so no reader has to fetch schema.org's context.
 */
export const schemaOrgDatasetSchema = z
  .object({
    '@context': z.object({ '@vocab': z.literal(NS.schema) }),
    '@type': z.literal('Dataset'),
    '@id': z.string(),
    name: z.string(),
    description: z.string(),
    url: z.string(),
    identifier: z.string(),
    keywords: z.array(z.string()),
    dateCreated: z.string(),
    dateModified: z.string(),
    isAccessibleForFree: z.boolean(),
    conditionsOfAccess: z.string(),
    creator: z.object({ '@type': z.literal('Organization'), name: z.string() }),
    publisher: z.object({ '@type': z.literal('Organization'), name: z.string() }),
    distribution: z.array(
      z.object({
        '@type': z.literal('DataDownload'),
        name: z.string(),
        encodingFormat: z.string(),
        contentSize: z.string(),
        contentUrl: z.string().optional(),
      }),
    ),
  })
  .describe('a schema.org Dataset (JSON-LD with an inline @context)');
export type SchemaOrgDataset = z.output<typeof schemaOrgDatasetSchema>;

export function schemaOrgDataset(urls: DcatUrls, dataset: PublicDataset): SchemaOrgDataset {
  const organisation = { '@type': 'Organization' as const, name: dataset.publisher.name || 'Unnamed organisation' };
  const open = dataset.accessRights === 'PUBLIC';
  return {
    '@context': { '@vocab': NS.schema },
    '@type': 'Dataset',
    '@id': urls.dataset(dataset.id),
    name: dataset.title,
    description: descriptionOf(dataset),
    url: urls.recordPage(dataset.id),
    identifier: dataset.id,
    keywords: dataset.keywords,
    dateCreated: dataset.issued.toISOString(),
    dateModified: dataset.modified.toISOString(),
    // Free when Open without a fee; otherwise its data is given on request (and may cost a fee).
    isAccessibleForFree: open && !dataset.fee,
    conditionsOfAccess: open
      ? 'Open access: anyone may download the data.'
      : `Access on request: ask the publisher through the record's page.${dataset.fee ? ` Access fee: ${dataset.fee.amount} ${dataset.fee.currency}.` : ''}`,
    creator: organisation,
    publisher: organisation,
    distribution: dataset.distributions.map((file) => ({
      '@type': 'DataDownload' as const,
      name: file.title,
      encodingFormat: file.contentType,
      contentSize: `${file.byteSize} B`,
      ...(file.downloadUrl ? { contentUrl: file.downloadUrl } : {}),
    })),
  };
}
