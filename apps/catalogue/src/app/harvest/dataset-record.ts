import { MAX_CUSTOM_FIELDS, MAX_NAME_LENGTH, MAX_TEXT_LENGTH } from '../record-model/record-fields';
import type { CustomField } from '../record-model/record';
import type { HarvestedDataset, HarvestedDistribution } from './dcat-reader';

/**
 * How an imported DCAT dataset is kept as a metadata-only record: its title is the record's name,
 * its description the record's description, and the rest are custom fields, in order: the source
 * dataset's IRI ("DCAT dataset"), its keywords ("Keywords", one a line: a catalogue may give a
 * hundred, more than a record has custom fields), and one "Distribution" field per distribution
 * whose value lists its title, media type, format, access and download URLs and byte size, one
 * "Label: value" line each. datasetOfFields reads them back (round trips and tests).
 */
export const SOURCE_LABEL = 'DCAT dataset';
export const KEYWORDS_LABEL = 'Keywords';
export const DISTRIBUTION_LABEL = 'Distribution';

const DISTRIBUTION_LINES: Array<[keyof HarvestedDistribution, string]> = [
  ['title', 'Title'],
  ['mediaType', 'Media type'],
  ['format', 'Format'],
  ['accessUrl', 'Access URL'],
  ['downloadUrl', 'Download URL'],
  ['byteSize', 'Byte size'],
];

/** Why a dataset cannot be kept as a record, or null. */
export function unkeepable(dataset: HarvestedDataset): string | null {
  if (dataset.distributions.length > MAX_CUSTOM_FIELDS - 2)
    return `It has ${dataset.distributions.length} distributions; a record keeps at most ${MAX_CUSTOM_FIELDS - 2}.`;
  if (dataset.keywords.join('\n').length > MAX_TEXT_LENGTH) return `Its keywords take more than the ${MAX_TEXT_LENGTH} characters a custom field may hold.`;
  if (dataset.iri.length > MAX_TEXT_LENGTH) return 'Its IRI is longer than a custom field may be.';
  return null;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function distributionText(distribution: HarvestedDistribution): string {
  return DISTRIBUTION_LINES.filter(([key]) => distribution[key] !== '' && distribution[key] !== null)
    .map(([key, label]) => `${label}: ${String(distribution[key]).replace(/\s+/g, ' ')}`)
    .join('\n');
}

/** The record fields of POST /api/records/ (and PUT's) for a dataset. */
export function recordFieldsOf(dataset: HarvestedDataset): { name: string; description: string; source: string; recordFields: CustomField[] } {
  const http = (url: string) => (/^https?:\/\/\S+$/i.test(url) && url.length <= 2048 ? url : '');
  return {
    name: cut(dataset.title.replace(/\s+/g, ' ').trim(), MAX_NAME_LENGTH) || cut(dataset.iri, MAX_NAME_LENGTH),
    description: cut(dataset.description, MAX_TEXT_LENGTH),
    source: http(dataset.landingPage) || http(dataset.iri),
    recordFields: [
      { label: SOURCE_LABEL, value: dataset.iri },
      ...(dataset.keywords.length ? [{ label: KEYWORDS_LABEL, value: dataset.keywords.join('\n') }] : []),
      ...dataset.distributions.map((distribution) => ({ label: DISTRIBUTION_LABEL, value: cut(distributionText(distribution), MAX_TEXT_LENGTH) })),
    ],
  };
}

/** The dataset a record imported from DCAT keeps (name, description and custom fields), read back. */
export function datasetOfFields(record: { name: string; description: string; recordFields: CustomField[] }): HarvestedDataset {
  const fields = record.recordFields;
  const distributions = fields
    .filter((f) => f.label === DISTRIBUTION_LABEL)
    .map((f) => {
      const lines = new Map(
        f.value.split('\n').map((line) => {
          const at = line.indexOf(': ');
          return [line.slice(0, at), line.slice(at + 2)] as const;
        }),
      );
      const size = lines.get('Byte size');
      return {
        title: lines.get('Title') ?? '',
        mediaType: lines.get('Media type') ?? '',
        format: lines.get('Format') ?? '',
        accessUrl: lines.get('Access URL') ?? '',
        downloadUrl: lines.get('Download URL') ?? '',
        byteSize: size === undefined ? null : Number(size),
      };
    });
  return {
    iri: fields.find((f) => f.label === SOURCE_LABEL)?.value ?? '',
    title: record.name,
    description: record.description,
    keywords: fields
      .filter((f) => f.label === KEYWORDS_LABEL)
      .flatMap((f) => f.value.split('\n'))
      .filter(Boolean),
    distributions,
    landingPage: '',
  };
}
