import { randomUUID } from 'node:crypto';
import { Parser, Store } from 'n3';
import type { DistributedProduct } from './distributed-product';
import { activateAndLogin, createPublicRecord, register } from './flows';

const DCAT_DATASET = 'http://www.w3.org/ns/dcat#Dataset';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const PASSWORD = 'correct horse battery';

/**
 * The DCAT-AP publication and a public record's page in distributed mode: the catalogue answers
 * /api/dcat/ through the gateway's route table, and the gateway asks it for a record page's
 * schema.org Dataset through its own address, so through the same proxy (docs/dcat.md).
 */
export function dcatThroughTheGateway(product: () => DistributedProduct): void {
  it('publishes the public records as DCAT-AP and schema.org through the gateway, never a private one', async () => {
    const { gatewayUrl, mailDir } = product();
    const username = `publisher${randomUUID().slice(0, 8)}`;
    expect((await register(gatewayUrl, username, PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(gatewayUrl, mailDir, username, PASSWORD);
    const open = await createPublicRecord(gatewayUrl, token, 'Rainfall </script> totals');
    const hidden = await fetch(`${gatewayUrl}/api/records/`, {
      method: 'POST',
      headers: { authorization: `JWT ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Private rainfall', description: 'Not for harvesters', access: 'OP' }),
    });
    expect(hidden.status).toBe(201);
    const hiddenId = ((await hidden.json()) as { id: string }).id;

    const catalog = await fetch(`${gatewayUrl}/api/dcat/catalog?page_size=500`, { headers: { accept: 'text/turtle' } });
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get('content-type')).toMatch(/^text\/turtle/);
    const data = new Store(new Parser().parse(await catalog.text()));
    const datasets = data.getSubjects(RDF_TYPE, DCAT_DATASET, null).map((t) => t.value);
    expect(datasets).toContain(`${gatewayUrl}/api/dcat/datasets/${open.id}`);
    expect(datasets.some((iri) => iri.endsWith(hiddenId))).toBe(false);
    expect((await fetch(`${gatewayUrl}/api/dcat/datasets/${hiddenId}`)).status).toBe(404);

    const page = await (await fetch(`${gatewayUrl}/records/${open.id}`)).text();
    const [json] = [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(JSON.parse(json)).toMatchObject({ '@type': 'Dataset', name: 'Rainfall </script> totals', url: `${gatewayUrl}/records/${open.id}` });
    const privatePage = await (await fetch(`${gatewayUrl}/records/${hiddenId}`)).text();
    expect(privatePage).not.toContain('application/ld+json');
    expect(privatePage).not.toContain('Private rainfall');
  });
}
