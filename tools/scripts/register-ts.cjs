// Compiles .ts files on require with the same swc options as the build and tests (path aliases such
// as @dc/contracts). Used by run-ts.cjs, and by worker threads started from TypeScript sources.
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');
const { swcOptions } = require('./swc-options.cjs');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...swcOptions(), filename, swcrc: false });
  module._compile(code, filename);
};
