import jsonld from 'jsonld';
import { type Quad, Writer } from 'n3';
import { JSON_LD, JSONLD_CONTEXT, TURTLE, TURTLE_PREFIXES } from './dcat-vocabulary';

export type RdfFormat = typeof TURTLE | typeof JSON_LD;

function write(quads: Quad[], options: { format: string; prefixes?: Record<string, string> }): Promise<string> {
  const writer = new Writer(options);
  writer.addQuads(quads);
  return new Promise((resolve, reject) => writer.end((error: Error | null, result: string) => (error ? reject(error) : resolve(result))));
}

export function toTurtle(quads: Quad[]): Promise<string> {
  return write(quads, { format: 'Turtle', prefixes: TURTLE_PREFIXES });
}

/** JSON-LD made by jsonld itself from the same triples (N-Quads in between), compacted with the prefixes. */
export async function toJsonLd(quads: Quad[]): Promise<object> {
  const nquads = await write(quads, { format: 'N-Quads' });
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  return jsonld.compact(expanded, JSONLD_CONTEXT);
}

export async function serialise(quads: Quad[], format: RdfFormat): Promise<string> {
  return format === TURTLE ? toTurtle(quads) : JSON.stringify(await toJsonLd(quads));
}
