import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

const FILES = [path.join(root, 'README.md'), ...markdownFiles(path.join(root, 'docs'))];

/** Markdown links and images: `[text](target)` and `![alt](target)`, without their #anchor. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^(https?:|mailto:|#)/.test(target));
}

describe('documentation in the repository (README.md, docs/)', () => {
  it('has the product specification, architecture, API guide, operations and user guide', () => {
    for (const file of [
      'docs/product-spec.md',
      'docs/architecture.md',
      'docs/api.md',
      'docs/operations.md',
      'docs/user-guide/README.md',
      'docs/openapi.json',
      'docs/asyncapi.yaml',
    ]) {
      expect({ file, exists: existsSync(path.join(root, file)) }).toEqual({ file, exists: true });
    }
  });

  it('points only to files in the repository, and every one of them exists', () => {
    const problems: string[] = [];
    for (const file of FILES) {
      const text = readFileSync(file, 'utf8');
      const name = path.relative(root, file);
      if (/\.\.\/shared\b|\/work\/shared/.test(text)) problems.push(`${name}: names ../shared, which a clone does not have`);
      for (const link of relativeLinks(text)) {
        const target = path.resolve(path.dirname(file), decodeURIComponent(link.split('#')[0]));
        if (!target.startsWith(root)) problems.push(`${name}: ${link} leaves the repository`);
        else if (!existsSync(target)) problems.push(`${name}: ${link} does not exist`);
      }
    }
    expect(problems).toEqual([]);
  });
});
