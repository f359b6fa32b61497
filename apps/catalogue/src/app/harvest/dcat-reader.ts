import { Parser, Store, type Quad, type Term } from 'n3';
import * as jsonld from 'jsonld';
import { bundledContext } from './dcat-contexts';

/**
 * Reads the datasets of a DCAT (DCAT-AP) catalogue from Turtle (or N-Triples, TriG, N-Quads) or
 * JSON-LD. Pure: no I/O, remote JSON-LD contexts refused (dcat-contexts.ts lists the few known ones).
 */

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const DCAT = 'http://www.w3.org/ns/dcat#';
const DCT = 'http://purl.org/dc/terms/';
const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

export type DcatFormat = 'turtle' | 'jsonld';

export interface HarvestedDistribution {
  title: string;
  mediaType: string;
  format: string;
  accessUrl: string;
  downloadUrl: string;
  byteSize: number | null;
}

export interface HarvestedDataset {
  /** The dataset's IRI in the source catalogue (a blank node's label when it has none: not stable across imports). */
  iri: string;
  title: string;
  description: string;
  keywords: string[];
  distributions: HarvestedDistribution[];
  landingPage: string;
}

/** Why the document is not a DCAT catalogue we can import, in words for the person importing it. */
export class DcatReadError extends Error {}

export interface ReadOptions {
  maxDatasets: number;
  /** Resolves relative IRIs (the document's URL, or a stand-in for an upload). */
  baseIri?: string;
}

/** JSON-LD when the media type or name says so, or the text starts like JSON; Turtle otherwise. */
export function formatOf(text: string, contentType = '', fileName = ''): DcatFormat {
  if (/json/i.test(contentType) || /\.(jsonld|json)$/i.test(fileName)) return 'jsonld';
  if (/turtle|n-triples|n-quads|trig/i.test(contentType) || /\.(ttl|nt|nq|trig)$/i.test(fileName)) return 'turtle';
  return /^\s*[[{]/.test(text) ? 'jsonld' : 'turtle';
}

async function refuseRemote(url: string): Promise<{ contextUrl: null; document: object; documentUrl: string }> {
  const document = bundledContext(url);
  if (!document) throw new DcatReadError(`The JSON-LD document refers to the remote context ${url}, which is not fetched. Put the context inline.`);
  return { contextUrl: null, document, documentUrl: url };
}

async function quadsOfJsonLd(text: string, baseIri: string | undefined): Promise<Quad[]> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new DcatReadError('The document is neither Turtle nor JSON-LD: it is not valid JSON.');
  }
  let nquads: string;
  try {
    nquads = (await jsonld.toRDF(document as jsonld.JsonLdDocument, {
      format: 'application/n-quads',
      documentLoader: refuseRemote as never,
      ...(baseIri ? { base: baseIri } : {}),
    })) as unknown as string;
  } catch (error) {
    if (error instanceof DcatReadError) throw error;
    const cause = (error as { details?: { cause?: unknown } }).details?.cause;
    if (cause instanceof DcatReadError) throw cause;
    throw new DcatReadError(`The JSON-LD document could not be read: ${(error as Error).message}`);
  }
  return new Parser({ format: 'N-Quads' }).parse(nquads);
}

function quadsOfTurtle(text: string, baseIri: string | undefined): Quad[] {
  try {
    return new Parser({ ...(baseIri ? { baseIRI: baseIri } : {}) }).parse(text);
  } catch (error) {
    throw new DcatReadError(`The document is not valid Turtle: ${(error as Error).message}`);
  }
}

/** English first, then no language tag, then any. */
function preferred(literals: Term[]): Term | undefined {
  const lang = (t: Term) => (t.termType === 'Literal' ? (t as Term & { language: string }).language.toLowerCase() : '');
  return literals.find((t) => lang(t) === 'en' || lang(t).startsWith('en-')) ?? literals.find((t) => lang(t) === '') ?? literals[0];
}

/** The last path segment or fragment of an IRI, as a name of last resort. */
function localName(iri: string): string {
  return iri.split(/[#/]/).filter(Boolean).pop() ?? iri;
}

class Graph {
  constructor(private readonly store: Store) {}

  objects(subject: Term, predicate: string): Term[] {
    return this.store.getObjects(subject, predicate, null);
  }

  text(subject: Term, predicate: string): string {
    const literals = this.objects(subject, predicate).filter((t) => t.termType === 'Literal');
    return preferred(literals)?.value.trim() ?? '';
  }

  /** An IRI's value, or a literal's (dct:format and dcat:mediaType come as either). */
  value(subject: Term, ...predicates: string[]): string {
    for (const predicate of predicates) {
      const found = this.objects(subject, predicate).find((t) => t.termType === 'NamedNode' || t.termType === 'Literal');
      if (found) return found.value.trim();
    }
    return '';
  }

  /** English and untagged keywords; any language when there are none of those. */
  keywords(subject: Term): string[] {
    const literals = this.objects(subject, `${DCAT}keyword`).filter((t) => t.termType === 'Literal') as Array<Term & { language: string }>;
    const plain = literals.filter((t) => t.language === '' || t.language.toLowerCase() === 'en' || t.language.toLowerCase().startsWith('en-'));
    // RDF keeps no order: sorted, so that every import of the same catalogue reads alike.
    return [...new Set((plain.length ? plain : literals).map((t) => t.value.replace(/\s+/g, ' ').trim()).filter(Boolean))].sort((a, b) => a.localeCompare(b));
  }

  subjectsOfType(type: string): Term[] {
    return this.store.getSubjects(RDF_TYPE, type, null);
  }

  subjects(predicate: string, object: Term | null = null): Term[] {
    return this.store.getSubjects(predicate, object, null);
  }
}

function distributionOf(graph: Graph, node: Term): HarvestedDistribution {
  const size = graph.value(node, `${DCAT}byteSize`);
  const byteSize = /^\d+(\.0+)?$/.test(size) ? Number(size.split('.')[0]) : null;
  return {
    title: graph.text(node, `${DCT}title`),
    mediaType: graph.value(node, `${DCAT}mediaType`),
    format: graph.value(node, `${DCT}format`),
    accessUrl: graph.value(node, `${DCAT}accessURL`),
    downloadUrl: graph.value(node, `${DCAT}downloadURL`),
    byteSize: byteSize !== null && Number.isSafeInteger(byteSize) ? byteSize : null,
  };
}

const key = (term: Term) => `${term.termType}:${term.value}`;

/**
 * Every dcat:Dataset of the document: typed ones, those a dcat:Catalog lists with dcat:dataset, and
 * the members of dataset series (dcat:inSeries); not the series themselves.
 */
export async function readDcat(text: string, format: DcatFormat, options: ReadOptions): Promise<HarvestedDataset[]> {
  if (text.trim() === '') throw new DcatReadError('The document is empty.');
  const quads = format === 'jsonld' ? await quadsOfJsonLd(text, options.baseIri) : quadsOfTurtle(text, options.baseIri);
  if (quads.length === 0) throw new DcatReadError('The document holds no RDF statements.');
  const graph = new Graph(new Store(quads));
  const series = new Set(graph.subjectsOfType(`${DCAT}DatasetSeries`).map(key));
  const found = new Map<string, Term>();
  for (const term of [
    ...graph.subjectsOfType(`${DCAT}Dataset`),
    ...graph.subjects(`${DCAT}dataset`).flatMap((catalog) => graph.objects(catalog, `${DCAT}dataset`)),
    ...graph.subjects(`${DCAT}inSeries`),
  ])
    if ((term.termType === 'NamedNode' || term.termType === 'BlankNode') && !series.has(key(term))) found.set(key(term), term);
  if (found.size === 0) throw new DcatReadError('The document holds no dcat:Dataset.');
  if (found.size > options.maxDatasets)
    throw new DcatReadError(`The document holds ${found.size} datasets; at most ${options.maxDatasets} are imported at once (HARVEST_MAX_DATASETS).`);
  return [...found.values()].map((node) => {
    const iri = node.termType === 'NamedNode' ? node.value : `_:${node.value}`;
    const seriesTitle = graph
      .objects(node, `${DCAT}inSeries`)
      .map((s) => graph.text(s, `${DCT}title`))
      .find(Boolean);
    const title = graph.text(node, `${DCT}title`) || graph.text(node, RDFS_LABEL) || (seriesTitle ? `${seriesTitle}: ${localName(iri)}` : localName(iri));
    return {
      iri,
      title,
      description: graph.text(node, `${DCT}description`),
      keywords: graph.keywords(node),
      distributions: graph
        .objects(node, `${DCAT}distribution`)
        .map((d) => distributionOf(graph, d))
        .sort((a, b) => a.title.localeCompare(b.title) || a.accessUrl.localeCompare(b.accessUrl) || a.downloadUrl.localeCompare(b.downloadUrl)),
      landingPage: graph.value(node, `${DCAT}landingPage`),
    };
  });
}
