/**
 * JSON-LD contexts the DCAT reader knows without fetching anything (remote contexts are refused:
 * there is no reason for the server to fetch what a document names, and doing so would let a
 * document make it call any address). This is our own context for the DCAT-AP terms the reader
 * takes (the names used by the DCAT-AP 3 context and its examples), served for the DCAT-AP context
 * addresses; a document with another remote context is refused with a clear error. Terms left out
 * here are dropped by JSON-LD, which the reader ignores anyway.
 */
const DCAT = 'http://www.w3.org/ns/dcat#';
const DCT = 'http://purl.org/dc/terms/';

const languageMap = (id: string) => ({ '@id': id, '@container': '@language' });
const reference = (id: string) => ({ '@id': id, '@type': '@id' });

export const DCAT_AP_TERMS = {
  dcat: DCAT,
  dct: DCT,
  dcterms: DCT,
  foaf: 'http://xmlns.com/foaf/0.1/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  Catalog: `${DCAT}Catalog`,
  Catalogue: `${DCAT}Catalog`,
  Dataset: `${DCAT}Dataset`,
  DatasetSeries: `${DCAT}DatasetSeries`,
  Distribution: `${DCAT}Distribution`,
  title: languageMap(`${DCT}title`),
  description: languageMap(`${DCT}description`),
  keyword: languageMap(`${DCAT}keyword`),
  dataset: reference(`${DCAT}dataset`),
  distribution: reference(`${DCAT}distribution`),
  datasetDistribution: reference(`${DCAT}distribution`),
  inSeries: reference(`${DCAT}inSeries`),
  accessURL: reference(`${DCAT}accessURL`),
  downloadURL: reference(`${DCAT}downloadURL`),
  mediaType: reference(`${DCAT}mediaType`),
  format: reference(`${DCT}format`),
  byteSize: { '@id': `${DCAT}byteSize`, '@type': 'xsd:nonNegativeInteger' },
  landingPage: reference(`${DCAT}landingPage`),
};

/** The DCAT-AP context addresses answered from DCAT_AP_TERMS (with and without a trailing variation). */
export const BUNDLED_CONTEXT_URLS = [
  'https://semiceu.github.io/DCAT-AP/releases/3.0.0/context/dcat-ap.jsonld',
  'https://semiceu.github.io/DCAT-AP/releases/3.0.1/context/dcat-ap.jsonld',
  'https://semiceu.github.io/uri.semic.eu-generated/DCAT-AP/releases/3.0.0/html/examples/context.jsonld',
  'https://semiceu.github.io/uri.semic.eu-generated/DCAT-AP/releases/3.0.1/html/examples/context.jsonld',
  'https://semiceu.github.io/uri.semic.eu-generated/DCAT-AP/releases/3.0.0/context/dcat-ap.jsonld',
  'https://semiceu.github.io/uri.semic.eu-generated/DCAT-AP/releases/3.0.1/context/dcat-ap.jsonld',
];

export function bundledContext(url: string): object | null {
  const normalised = url.replace(/^http:/, 'https:').replace(/#.*$/, '');
  return BUNDLED_CONTEXT_URLS.includes(normalised) ? { '@context': DCAT_AP_TERMS } : null;
}
