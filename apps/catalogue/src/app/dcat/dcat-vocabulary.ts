/**
 * The RDF vocabulary of the DCAT-AP 3.0.1 publication (docs/dcat.md): namespaces, the terms used,
 * the EU access-right authority table and the prefixes and JSON-LD context the serialisations use.
 * Pure: no I/O, no RDF library, so the export and the harvester (which reads the same terms) share it.
 */

export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  dcat: 'http://www.w3.org/ns/dcat#',
  dct: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  vcard: 'http://www.w3.org/2006/vcard/ns#',
  hydra: 'http://www.w3.org/ns/hydra/core#',
  schema: 'https://schema.org/',
} as const;

const term =
  <P extends string>(ns: string) =>
  (local: P) =>
    `${ns}${local}`;

const rdf = term<'type'>(NS.rdf);
const xsd = term<'dateTime' | 'nonNegativeInteger' | 'integer'>(NS.xsd);
const dcat = term<
  | 'Catalog'
  | 'Dataset'
  | 'Distribution'
  | 'dataset'
  | 'distribution'
  | 'keyword'
  | 'contactPoint'
  | 'landingPage'
  | 'accessURL'
  | 'downloadURL'
  | 'mediaType'
  | 'byteSize'
>(NS.dcat);
const dct = term<
  'title' | 'description' | 'publisher' | 'issued' | 'modified' | 'identifier' | 'accessRights' | 'RightsStatement' | 'MediaType' | 'conformsTo' | 'license'
>(NS.dct);
const foaf = term<'Agent' | 'Organization' | 'Document' | 'name' | 'homepage'>(NS.foaf);
const vcard = term<'Kind' | 'Organization' | 'fn' | 'hasURL'>(NS.vcard);
const hydra = term<
  | 'PartialCollectionView'
  | 'PagedCollection'
  | 'view'
  | 'first'
  | 'last'
  | 'next'
  | 'previous'
  | 'firstPage'
  | 'lastPage'
  | 'nextPage'
  | 'previousPage'
  | 'totalItems'
  | 'itemsPerPage'
>(NS.hydra);

/** Every IRI the publication writes, by prefix. */
export const V = {
  rdf: { type: rdf('type') },
  xsd: { dateTime: xsd('dateTime'), nonNegativeInteger: xsd('nonNegativeInteger'), integer: xsd('integer') },
  dcat: {
    Catalog: dcat('Catalog'),
    Dataset: dcat('Dataset'),
    Distribution: dcat('Distribution'),
    dataset: dcat('dataset'),
    distribution: dcat('distribution'),
    keyword: dcat('keyword'),
    contactPoint: dcat('contactPoint'),
    landingPage: dcat('landingPage'),
    accessURL: dcat('accessURL'),
    downloadURL: dcat('downloadURL'),
    mediaType: dcat('mediaType'),
    byteSize: dcat('byteSize'),
  },
  dct: {
    title: dct('title'),
    description: dct('description'),
    publisher: dct('publisher'),
    issued: dct('issued'),
    modified: dct('modified'),
    identifier: dct('identifier'),
    accessRights: dct('accessRights'),
    RightsStatement: dct('RightsStatement'),
    MediaType: dct('MediaType'),
    conformsTo: dct('conformsTo'),
    license: dct('license'),
  },
  foaf: { Agent: foaf('Agent'), Organization: foaf('Organization'), Document: foaf('Document'), name: foaf('name'), homepage: foaf('homepage') },
  vcard: { Kind: vcard('Kind'), Organization: vcard('Organization'), fn: vcard('fn'), hasURL: vcard('hasURL') },
  hydra: {
    PartialCollectionView: hydra('PartialCollectionView'),
    PagedCollection: hydra('PagedCollection'),
    view: hydra('view'),
    first: hydra('first'),
    last: hydra('last'),
    next: hydra('next'),
    previous: hydra('previous'),
    firstPage: hydra('firstPage'),
    lastPage: hydra('lastPage'),
    nextPage: hydra('nextPage'),
    previousPage: hydra('previousPage'),
    totalItems: hydra('totalItems'),
    itemsPerPage: hydra('itemsPerPage'),
  },
} as const;

/** The EU Publications Office access-right table (dct:accessRights), as DCAT-AP asks. */
export const ACCESS_RIGHT = {
  PUBLIC: 'http://publications.europa.eu/resource/authority/access-right/PUBLIC',
  RESTRICTED: 'http://publications.europa.eu/resource/authority/access-right/RESTRICTED',
  NON_PUBLIC: 'http://publications.europa.eu/resource/authority/access-right/NON_PUBLIC',
} as const;
export type AccessRight = keyof typeof ACCESS_RIGHT;

/** DCAT-AP names IANA's registry for dcat:mediaType. */
export const IANA_MEDIA_TYPES = 'http://www.iana.org/assignments/media-types/';

/** The DCAT-AP release the publication conforms to (dct:conformsTo of the catalogue). */
export const DCAT_AP_3_0_1 = 'http://data.europa.eu/r5r/';

/** A media type's IANA IRI, or null for what is not `type/subtype` (parameters dropped). */
export function mediaTypeIri(contentType: string): string | null {
  const bare = contentType.split(';')[0].trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(bare) ? `${IANA_MEDIA_TYPES}${bare}` : null;
}

/** The prefixes the Turtle is written with. */
export const TURTLE_PREFIXES: Record<string, string> = {
  dcat: NS.dcat,
  dct: NS.dct,
  foaf: NS.foaf,
  vcard: NS.vcard,
  hydra: NS.hydra,
  xsd: NS.xsd,
};

/** The JSON-LD context the catalogue is compacted with (prefixes only: every value keeps its datatype). */
export const JSONLD_CONTEXT: Record<string, string> = { ...TURTLE_PREFIXES, rdf: NS.rdf };

/** Media types of the two serialisations. */
export const TURTLE = 'text/turtle';
export const JSON_LD = 'application/ld+json';
