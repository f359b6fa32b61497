// Which extractor a file gets: by extension first, then by content type.
import type { FileKind } from './types';

const BY_EXTENSION: Record<string, FileKind> = {
  csv: 'csv',
  tsv: 'csv',
  tab: 'csv',
  xls: 'xls',
  xlsx: 'xlsx',
  pdf: 'pdf',
  docx: 'docx',
  hl7: 'hl7',
  zip: 'zip',
  txt: 'txt',
  text: 'txt',
};

const BY_CONTENT_TYPE: Record<string, FileKind> = {
  'text/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'x-application/hl7-v2+er7': 'hl7',
  'application/hl7-v2': 'hl7',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'text/plain': 'txt',
};

/** The content type of each file type the product extracts (spec section 4), by extension: what an upload without a helpful type is stored as. */
export const EXTRACTED_CONTENT_TYPES: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  hl7: 'x-application/hl7-v2+er7',
  zip: 'application/zip',
  txt: 'text/plain',
  json: 'application/json',
};

const CONTENT_TYPES: Record<string, string> = {
  ...EXTRACTED_CONTENT_TYPES,
  xml: 'application/xml',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function fileKindOf(fileName: string, contentType?: string): FileKind {
  const byExtension = BY_EXTENSION[extensionOf(fileName)];
  if (byExtension) return byExtension;
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return (type && BY_CONTENT_TYPE[type]) || 'other';
}

/** The given content type, else one guessed from the extension. */
export function contentTypeOf(fileName: string, contentType?: string): string {
  if (contentType && contentType.trim() !== '') return contentType;
  return CONTENT_TYPES[extensionOf(fileName)] ?? 'application/octet-stream';
}
