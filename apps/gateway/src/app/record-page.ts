import type { Request } from 'express';

/**
 * A public record's page for crawlers: the web app is client-rendered (hash routes), so the gateway
 * answers `/records/{id}` itself with the app's HTML carrying the record's title, description and
 * schema.org Dataset JSON-LD, readable without JavaScript. What it shows comes from the catalogue's
 * anonymous GET /api/dcat/datasets/{id}/schema-org, asked through the gateway's own address, so the
 * call is routed the same way in both run modes (embedded: the same process; distributed: the proxy).
 */

/** `/records/{uuid}` (the record's URL in the publication; the app itself routes `#/records/{id}`). */
export const RECORD_PAGE = /^\/records\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/** How long the page waits for the catalogue before it serves the plain app. */
const METADATA_TIMEOUT_MS = 3000;

/** The schema.org Dataset the catalogue answers (the fields the page's head needs; the rest is passed on as is). */
export interface SchemaOrgDataset {
  name: string;
  description: string;
  url?: string;
  [key: string]: unknown;
}

export type RecordMetadata = (req: Request, recordId: string) => Promise<SchemaOrgDataset | null>;

/** Asks the gateway's own address (the socket the page's request came in on): no hint of who else may see the record. */
export const metadataThroughGateway: RecordMetadata = async (req, recordId) => {
  const { localAddress, localPort } = req.socket;
  if (!localAddress || !localPort) return null;
  const host = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  const answer = await fetch(`http://${host}:${localPort}/api/dcat/datasets/${recordId}/schema-org`, {
    headers: { accept: 'application/ld+json' },
    signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
  });
  if (answer.status !== 200) return null;
  const body = (await answer.json()) as Partial<SchemaOrgDataset>;
  return typeof body?.name === 'string' && typeof body.description === 'string' ? (body as SchemaOrgDataset) : null;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * JSON inside <script>: `<`, `>` and `&` as \u escapes (so `</script>` or `<!--` in a title cannot end
 * or bend the element), and the two line separators JavaScript once refused.
 */
export const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const SHORT_DESCRIPTION = 300;

/**
 * The app's index.html for a page `depth` folders deep: a <base> so its relative assets (the build
 * uses base './') still load, and, for a public record, its title, description, canonical URL and
 * JSON-LD. The same HTML for a record that is not public and one that does not exist.
 */
export function recordPageHtml(indexHtml: string, depth: number, dataset: SchemaOrgDataset | null): string {
  let html = indexHtml.replace(/<head>/i, `<head>\n    <base href="${'../'.repeat(depth)}" />`);
  if (!dataset) return html;
  const description = dataset.description.length > SHORT_DESCRIPTION ? `${dataset.description.slice(0, SHORT_DESCRIPTION - 1)}…` : dataset.description;
  const title = `${escapeHtml(dataset.name)} - Data Catalogue`;
  html = /<title>[\s\S]*?<\/title>/i.test(html) ? html.replace(/<title>[\s\S]*?<\/title>/i, () => `<title>${title}</title>`) : html;
  const meta = `<meta name="description" content="${escapeHtml(description)}" />`;
  html = /<meta\s+name="description"[^>]*>/i.test(html) ? html.replace(/<meta\s+name="description"[^>]*>/i, () => meta) : html;
  const head = [
    typeof dataset.url === 'string' ? `<link rel="canonical" href="${escapeHtml(dataset.url)}" />` : '',
    // The record's DCAT-AP description (its dataset IRI answers Turtle or JSON-LD), for harvesters that follow links.
    typeof dataset['@id'] === 'string' ? `<link rel="alternate" type="text/turtle" href="${escapeHtml(dataset['@id'])}" />` : '',
    `<script type="application/ld+json">${scriptSafeJson(dataset)}</script>`,
  ]
    .filter(Boolean)
    .join('\n    ');
  return html.replace(/<\/head>/i, () => `    ${head}\n  </head>`);
}
