import { RECORD_PAGE, recordPageHtml, scriptSafeJson } from './record-page';

const INDEX =
  '<!doctype html>\n<html>\n  <head>\n    <meta name="description" content="App." />\n    <title>Data Catalogue</title>\n  </head>\n  <body></body>\n</html>';

describe('record page HTML', () => {
  it('matches a record id path only', () => {
    expect(RECORD_PAGE.test('/records/0b8e4c1e-1111-4c1e-8e4c-0b8e4c1e1111')).toBe(true);
    expect(RECORD_PAGE.test('/records/0b8e4c1e-1111-4c1e-8e4c-0b8e4c1e1111/')).toBe(true);
    expect(RECORD_PAGE.test('/records/edit/0b8e4c1e-1111-4c1e-8e4c-0b8e4c1e1111')).toBe(false);
    expect(RECORD_PAGE.test('/records/not-an-id')).toBe(false);
  });

  it('writes JSON that no HTML parser ends early, and that parses back to the same value', () => {
    const value = { name: '</script><!-- & \u2028 <b>' };
    const safe = scriptSafeJson(value);
    expect(safe).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(safe)).toEqual(value);
  });

  it('adds a base for the assets, and the title, description and JSON-LD of a public record, escaped', () => {
    const html = recordPageHtml(INDEX, 1, { name: 'A "quoted" <name> $&', description: 'D & <d>', url: 'https://x.example/records/1' });
    expect(html).toContain('<base href="../" />');
    expect(html).toContain('<title>A &quot;quoted&quot; &lt;name&gt; $&amp; - Data Catalogue</title>');
    expect(html).toContain('<meta name="description" content="D &amp; &lt;d&gt;" />');
    expect(html).toContain('<link rel="canonical" href="https://x.example/records/1" />');
    expect(html).toMatch(/<script type="application\/ld\+json">\{"name":"A \\"quoted\\" \\u003cname\\u003e \$\\u0026"/);
    expect(recordPageHtml(INDEX, 2, null)).toBe(INDEX.replace('<head>', '<head>\n    <base href="../../" />'));
  });
});
