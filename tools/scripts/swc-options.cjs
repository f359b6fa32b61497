// One source of truth for how TypeScript is compiled (build and tests):
// path aliases come from tsconfig.base.json, decorators keep Nest's metadata.
const path = require('node:path');
const root = path.resolve(__dirname, '../..');
const tsconfig = require(path.join(root, 'tsconfig.base.json'));

function swcOptions() {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2023',
      keepClassNames: true,
      baseUrl: root,
      paths: tsconfig.compilerOptions.paths,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  };
}

/** Jest moduleNameMapper built from the same aliases. */
function jestModuleNameMapper() {
  const mapper = {};
  for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
    mapper[`^${alias.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`] = path.join(root, target);
  }
  return mapper;
}

module.exports = { root, swcOptions, jestModuleNameMapper };
