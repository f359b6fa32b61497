import { DataFactory, type Quad } from 'n3';
import { ACCESS_RIGHT, DCAT_AP_3_0_1, mediaTypeIri, V } from './dcat-vocabulary';
import { type DcatUrls, descriptionOf, type PublicDataset } from './public-dataset';

const { namedNode, literal, quad } = DataFactory;

/** One page of the published catalogue, as harvesters walk it (Hydra paging). */
export interface CatalogPage {
  datasets: PublicDataset[];
  page: number;
  pageSize: number;
  defaultPageSize: number;
  totalItems: number;
  title: string;
  description: string;
  publisherName: string;
}

/** The triples of a DCAT-AP 3.0.1 publication, written by subject so each node stays together. */
class Graph {
  readonly quads: Quad[] = [];

  iri(subject: string, predicate: string, object: string | null): void {
    if (object) this.quads.push(quad(namedNode(subject), namedNode(predicate), namedNode(object)));
  }

  text(subject: string, predicate: string, value: string): void {
    this.quads.push(quad(namedNode(subject), namedNode(predicate), literal(value)));
  }

  typed(subject: string, predicate: string, value: string, datatype: string): void {
    this.quads.push(quad(namedNode(subject), namedNode(predicate), literal(value, namedNode(datatype))));
  }

  date(subject: string, predicate: string, value: Date): void {
    this.typed(subject, predicate, value.toISOString(), V.xsd.dateTime);
  }
}

/** A dataset, its distributions, publisher and contact point. */
function addDataset(graph: Graph, urls: DcatUrls, dataset: PublicDataset): string {
  const iri = urls.dataset(dataset.id);
  const page = urls.recordPage(dataset.id);
  graph.iri(iri, V.rdf.type, V.dcat.Dataset);
  graph.text(iri, V.dct.identifier, dataset.id);
  graph.text(iri, V.dct.title, dataset.title);
  graph.text(iri, V.dct.description, descriptionOf(dataset));
  for (const keyword of dataset.keywords) graph.text(iri, V.dcat.keyword, keyword);
  graph.date(iri, V.dct.issued, dataset.issued);
  graph.date(iri, V.dct.modified, dataset.modified);
  graph.iri(iri, V.dcat.landingPage, page);
  graph.iri(page, V.rdf.type, V.foaf.Document);

  const publisher = urls.publisher(dataset.publisher.id);
  graph.iri(iri, V.dct.publisher, publisher);
  graph.iri(publisher, V.rdf.type, V.foaf.Agent);
  graph.iri(publisher, V.rdf.type, V.foaf.Organization);
  graph.text(publisher, V.foaf.name, dataset.publisher.name || 'Unnamed organisation');

  // The record's page is where a visitor reaches the organisation (and requests access).
  const contact = urls.contact(dataset.id);
  graph.iri(iri, V.dcat.contactPoint, contact);
  graph.iri(contact, V.rdf.type, V.vcard.Kind);
  graph.iri(contact, V.rdf.type, V.vcard.Organization);
  graph.text(contact, V.vcard.fn, dataset.publisher.name || 'Unnamed organisation');
  graph.iri(contact, V.vcard.hasURL, page);

  const rights = ACCESS_RIGHT[dataset.accessRights];
  graph.iri(iri, V.dct.accessRights, rights);
  graph.iri(rights, V.rdf.type, V.dct.RightsStatement);

  for (const file of dataset.distributions) {
    const distribution = urls.distribution(dataset.id, file.id);
    graph.iri(iri, V.dcat.distribution, distribution);
    graph.iri(distribution, V.rdf.type, V.dcat.Distribution);
    graph.text(distribution, V.dct.title, file.title);
    graph.date(distribution, V.dct.issued, file.issued);
    graph.iri(distribution, V.dcat.accessURL, page);
    graph.iri(distribution, V.dcat.downloadURL, file.downloadUrl);
    graph.typed(distribution, V.dcat.byteSize, String(Math.max(0, Math.round(file.byteSize))), V.xsd.nonNegativeInteger);
    const mediaType = mediaTypeIri(file.contentType);
    graph.iri(distribution, V.dcat.mediaType, mediaType);
    graph.iri(distribution, V.dct.accessRights, rights);
    if (mediaType) graph.iri(mediaType, V.rdf.type, V.dct.MediaType);
  }
  return iri;
}

/** One record's own DCAT: the dataset alone. */
export function datasetGraph(urls: DcatUrls, dataset: PublicDataset): Quad[] {
  const graph = new Graph();
  addDataset(graph, urls, dataset);
  return graph.quads;
}

/** A page of the catalogue: the dcat:Catalog with this page's datasets and the Hydra view to walk the rest. */
export function catalogGraph(urls: DcatUrls, page: CatalogPage): Quad[] {
  const graph = new Graph();
  const catalog = urls.catalog;
  graph.iri(catalog, V.rdf.type, V.dcat.Catalog);
  graph.text(catalog, V.dct.title, page.title);
  graph.text(catalog, V.dct.description, page.description);
  graph.iri(catalog, V.dct.conformsTo, DCAT_AP_3_0_1);
  graph.iri(catalog, V.foaf.homepage, `${urls.base}/`);
  graph.iri(`${urls.base}/`, V.rdf.type, V.foaf.Document);
  graph.iri(catalog, V.dct.publisher, urls.catalogPublisher);
  graph.iri(urls.catalogPublisher, V.rdf.type, V.foaf.Agent);
  graph.text(urls.catalogPublisher, V.foaf.name, page.publisherName);
  const newest = page.datasets.reduce<Date | null>((latest, d) => (!latest || d.modified > latest ? d.modified : latest), null);
  if (newest) graph.date(catalog, V.dct.modified, newest);
  for (const dataset of page.datasets) graph.iri(catalog, V.dcat.dataset, addDataset(graph, urls, dataset));

  // Hydra paging, in the current vocabulary (PartialCollectionView, first/next/last) and the older
  // one (PagedCollection, firstPage/nextPage/lastPage) that CKAN's DCAT harvester still reads.
  const lastPage = Math.max(1, Math.ceil(page.totalItems / page.pageSize));
  const at = (n: number) => urls.catalogPage(n, page.pageSize, page.defaultPageSize);
  const view = at(page.page);
  graph.iri(catalog, V.hydra.view, view);
  graph.iri(view, V.rdf.type, V.hydra.PartialCollectionView);
  graph.iri(view, V.rdf.type, V.hydra.PagedCollection);
  graph.typed(view, V.hydra.totalItems, String(page.totalItems), V.xsd.integer);
  graph.typed(view, V.hydra.itemsPerPage, String(page.pageSize), V.xsd.integer);
  for (const [current, legacy, n] of [
    [V.hydra.first, V.hydra.firstPage, 1],
    [V.hydra.last, V.hydra.lastPage, lastPage],
    [V.hydra.previous, V.hydra.previousPage, page.page > 1 ? Math.min(page.page - 1, lastPage) : null],
    [V.hydra.next, V.hydra.nextPage, page.page < lastPage ? page.page + 1 : null],
  ] as const) {
    if (n === null) continue;
    graph.iri(view, current, at(n));
    graph.iri(view, legacy, at(n));
  }
  return graph.quads;
}
