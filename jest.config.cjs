const { swcOptions, jestModuleNameMapper } = require('./tools/scripts/swc-options.cjs');

const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcOptions(), sourceMaps: 'inline', swcrc: false }] };
const serverSwc = swcOptions();
const webSwc = { ...serverSwc, jsc: { ...serverSwc.jsc, parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } };
const common = {
  transform,
  moduleNameMapper: jestModuleNameMapper(),
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
};

/** @type {import('jest').Config} */
module.exports = {
  // Per-project testTimeout is ignored by jest; infrastructure and browser suites need more than 5 s.
  testTimeout: 60000,
  // A worker that has grown past this after a test file is replaced, so modules kept by earlier suites
  // (browsers, parsers, an OpenID provider) cannot add up until one suite runs out of memory.
  workerIdleMemoryLimit: '1.5GB',
  testSequencer: '<rootDir>/tools/scripts/test-sequencer.cjs',
  projects: [
    {
      ...common,
      displayName: 'unit',
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '\\.e2e-spec\\.ts$', '/apps/web/'],
    },
    {
      // Pure client logic (formatting, previews, rules); the screens themselves are covered by the browser tests.
      ...common,
      displayName: 'web',
      transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...webSwc, sourceMaps: 'inline', swcrc: false }] },
      roots: ['<rootDir>/apps/web/src'],
      testMatch: ['**/*.spec.ts', '**/*.spec.tsx'],
    },
    {
      ...common,
      displayName: 'e2e',
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
      testMatch: ['**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    },
  ],
};
