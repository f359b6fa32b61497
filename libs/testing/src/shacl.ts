import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Parser, Store } from 'n3';

/** The official DCAT-AP 3.0.1 SHACL shapes kept in the repository (libs/testing/standards, CC-BY 4.0, SEMIC). */
export const DCAT_AP_3_0_1_SHAPES = ['dcat-ap-SHACL.ttl', 'ranges.ttl'].map((file) => path.resolve(__dirname, '../standards/dcat-ap-3.0.1', file));

export interface ShaclResult {
  severity: string;
  focusNode: string;
  path: string;
  message: string;
  shape: string;
}

/** Turtle parsed by n3 into an RDF/JS dataset (n3's Store). */
export function turtleDataset(turtle: string, baseIRI?: string): Store {
  return new Store(new Parser({ baseIRI }).parse(turtle));
}

/**
 * Validates RDF against the DCAT-AP 3.0.1 shapes with a real SHACL engine (rdf-validate-shacl), and
 * answers every result: sh:Violation, sh:Warning or sh:Info, with its focus node and path.
 */
export async function validateDcatAp(data: Store): Promise<{ conforms: boolean; results: ShaclResult[] }> {
  // ESM package with a CommonJS build: its default export is the validator.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const SHACLValidator = require('rdf-validate-shacl').default;
  const shapes = new Store();
  for (const file of DCAT_AP_3_0_1_SHAPES) shapes.addQuads(new Parser().parse(readFileSync(file, 'utf8')));
  // Its own RDF/JS environment (data model, dataset, clownface) reads n3's Store as a DatasetCore.
  const validator = new SHACLValidator(shapes);
  const report = await validator.validate(data);
  const value = (term: { value?: string } | null | undefined) => term?.value ?? '';
  return {
    conforms: report.conforms as boolean,
    results: (report.results as Array<Record<string, unknown>>).map((r) => ({
      severity: value(r.severity as { value: string }),
      focusNode: value(r.focusNode as { value: string }),
      path: value(r.path as { value: string }),
      message: ((r.message as Array<{ value: string }>) ?? []).map((m) => m.value).join(' '),
      shape: value(r.sourceShape as { value: string }),
    })),
  };
}
