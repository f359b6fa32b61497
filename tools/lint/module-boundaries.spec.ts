import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '../..');

/** Lints a small file that does not exist on disk, as if it stood at `file`, with the repository's eslint.config.mjs. */
async function boundaryErrors(eslint: ESLint, file: string, importPath: string): Promise<string[]> {
  const code = `import * as imported from '${importPath}';\nexport const probe = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((message) => message.ruleId === '@nx/enforce-module-boundaries').map((message) => message.message);
}

describe('module boundaries (eslint.config.mjs, Nx tags)', () => {
  let eslint: ESLint;

  beforeAll(() => {
    // The Nx rule reads the cached project graph; without one it skips with a mere warning.
    execFileSync(process.execPath, [path.join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false' },
      stdio: 'ignore',
    });
    eslint = new ESLint({ cwd: root });
  }, 120_000);

  it('fails a service that imports another service, in its code and in its tests', async () => {
    expect(await boundaryErrors(eslint, 'apps/catalogue/src/app/boundary-probe.ts', '@dc/service-identity')).toEqual([expect.stringMatching(/apps/i)]);
    expect(await boundaryErrors(eslint, 'apps/search/src/app/boundary-probe.spec.ts', '@dc/service-catalogue')).toEqual([expect.stringMatching(/apps/i)]);
  });

  it('lets the gateway compose the service modules, in its code and its end-to-end tests', async () => {
    expect(await boundaryErrors(eslint, 'apps/gateway/src/app/boundary-probe.ts', '@dc/service-identity')).toEqual([]);
    expect(await boundaryErrors(eslint, 'apps/gateway/e2e/boundary-probe.e2e-spec.ts', '@dc/service-catalogue')).toEqual([]);
  });

  it('keeps the layers: services use server libraries; the web client and contracts only platform-neutral ones', async () => {
    expect(await boundaryErrors(eslint, 'apps/catalogue/src/app/boundary-probe.ts', '@dc/platform')).toEqual([]);
    expect(await boundaryErrors(eslint, 'apps/web/src/boundary-probe.ts', '@dc/platform')).toEqual([expect.stringContaining('platform:neutral')]);
    expect(await boundaryErrors(eslint, 'libs/contracts/src/boundary-probe.ts', '@dc/storage')).toEqual([expect.stringContaining('platform:neutral')]);
  });
});
