// Compiles every service and library to dist/ with swc (path aliases rewritten to relative
// requires), then builds the web app with Vite into dist/apps/web.
import './require-node.mjs';
import { transformFile } from '@swc/core';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const require = createRequire(import.meta.url);
const { root, swcOptions } = require('./swc-options.cjs');
const dist = path.join(root, 'dist');

// What only tests use stays out of dist/ (and so out of the image): specs, fixtures, the apps'
// testing/ folders and libs/testing.
async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing') yield* sources(full);
    } else if (/\.ts$/.test(entry.name) && !/\.((e2e-)?spec|fixture)\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

async function compileServer() {
  const options = { ...swcOptions(), sourceMaps: true };
  const dirs = [];
  for (const top of ['apps', 'libs']) {
    for (const name of await readdir(path.join(root, top))) {
      if ((top === 'apps' && name === 'web') || (top === 'libs' && name === 'testing')) continue;
      const src = path.join(root, top, name, 'src');
      if (existsSync(src)) dirs.push(src);
    }
  }
  let count = 0;
  for (const dir of dirs) {
    for await (const file of sources(dir)) {
      const out = path.join(dist, path.relative(root, file)).replace(/\.ts$/, '.js');
      const { code, map } = await transformFile(file, { ...options, filename: file, outputPath: out, swcrc: false });
      await mkdir(path.dirname(out), { recursive: true });
      await writeFile(out, map ? `${code}\n//# sourceMappingURL=${path.basename(out)}.map` : code);
      if (map) await writeFile(`${out}.map`, map);
      count++;
    }
  }
  return count;
}

const skipWeb = process.argv.includes('--server-only');
// Stale output of deleted sources must not linger; the web bundle is replaced only by its own build.
for (const name of await readdir(path.join(root, 'apps'))) {
  if (name !== 'web') await rm(path.join(dist, 'apps', name), { recursive: true, force: true });
}
await rm(path.join(dist, 'libs'), { recursive: true, force: true });
const count = await compileServer();
console.log(`build: compiled ${count} server files to dist/`);
if (!skipWeb) {
  execFileSync(
    process.execPath,
    [path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'), 'build', '--config', 'apps/web/vite.config.ts', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  console.log('build: web app built to dist/apps/web');
}
