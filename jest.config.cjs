const { swcOptions, jestModuleNameMapper } = require('./tools/scripts/swc-options.cjs');

const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcOptions(), sourceMaps: 'inline', swcrc: false }] };
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
  projects: [
    {
      ...common,
      displayName: 'unit',
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/', '\\.e2e-spec\\.ts$', '/apps/web/'],
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
