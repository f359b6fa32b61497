import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nodeVersionProblem, REQUIRED_NODE_MAJOR } from './node-version';

const root = path.resolve(__dirname, '../../..');
const APPS = ['gateway', 'identity', 'catalogue', 'search', 'requests', 'relations', 'jobs'];

describe('Node major-version guard', () => {
  let preload: string;
  let directory: string;

  beforeAll(() => {
    // Makes this very Node (24) report itself as an older one, as the machine's own Node would be.
    directory = mkdtempSync(path.join(tmpdir(), 'dc-node-version-'));
    preload = path.join(directory, 'pretend-node-20.cjs');
    writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: '20.20.2' });\n");
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** Runs a file of the repository with this Node pretending to be Node 20. */
  const onNode20 = (...args: string[]) =>
    spawnSync(process.execPath, ['--require', preload, ...args], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });

  it('requires the major the project pins in package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.devDependencies.node).toMatch(new RegExp(`^~?${REQUIRED_NODE_MAJOR}\\.`));
    expect(nodeVersionProblem('24.21.0')).toBeUndefined();
    expect(nodeVersionProblem('20.20.2', '/usr/bin/node')).toBe(
      "Node.js 24 is required, but this is Node.js 20.20.2 (/usr/bin/node). npm start and npm test use the project's own Node 24 (after npm install); to start a file directly, use node_modules/.bin/node.",
    );
    expect(nodeVersionProblem('25.0.0')).toContain('Node.js 24 is required');
  });

  it('is the first import of every entry point', () => {
    for (const app of APPS) {
      const firstImport = readFileSync(path.join(root, `apps/${app}/src/main.ts`), 'utf8')
        .split('\n')
        .find((line) => line.startsWith('import'));
      expect({ app, firstImport }).toEqual({ app, firstImport: "import '@dc/platform/node-version-guard';" });
    }
  });

  it('stops an entry point on another Node with the message, before loading anything else', () => {
    const result = onNode20('tools/scripts/run-ts.cjs', 'libs/platform/src/node-version-guard.ts');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Node.js 24 is required, but this is Node.js 20.20.2');
  });

  it('stops the test and build scripts on another Node before they do anything', () => {
    for (const script of ['tools/scripts/test.mjs', 'tools/scripts/build.mjs']) {
      const result = onNode20(script);
      expect({ script, status: result.status, stdout: result.stdout }).toEqual({ script, status: 1, stdout: '' });
      expect(result.stderr).toContain('Node.js 24 is required, but this is Node.js 20.20.2');
    }
  });
});
