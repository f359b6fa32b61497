import nx from '@nx/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The service modules: only the gateway composes them (embedded mode runs them all in one process). */
const SERVICE_MODULES = [
  '@dc/service-identity',
  '@dc/service-catalogue',
  '@dc/service-search',
  '@dc/service-requests',
  '@dc/service-relations',
  '@dc/service-jobs',
];

const LAYERS = [
  { sourceTag: 'platform:neutral', onlyDependOnLibsWithTags: ['platform:neutral'] },
  { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['platform:neutral'] },
  { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server'] },
  { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server'] },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server', 'type:app'] },
  { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server'] },
];
/** Tests may use any library (the testing helpers included), but still import no app unless allowed. */
const ANY_LIBRARY = [{ sourceTag: '*', onlyDependOnLibsWithTags: ['*'] }];
// End-to-end helpers beside the suites (e2e/ folders), test fixtures (*.fixture.ts, left out of the
// build) and the services' test harnesses (src/testing/) count as tests too.
const TESTS = ['**/*.spec.ts', '**/*.spec.tsx', '**/*.e2e-spec.ts', '**/e2e/**/*.ts', '**/*.fixture.ts', '**/src/testing/**/*.ts'];

// Nx forbids importing an app unless its path is in `allow`; the gateway's blocks come last, so only they allow the services.
const boundaries = (depConstraints, allow = []) => ['error', { enforceBuildableLibDependency: false, allow, depConstraints }];

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/test-artifacts/**'] },
  ...tseslint.configs.recommended,
  // The scripts of tools/ and deploy/ run on Node as they are (CommonJS or ES modules).
  {
    files: ['**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: globals.node },
    rules: { 'no-undef': 'error' },
  },
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': boundaries(LAYERS),
    },
  },
  { files: TESTS, rules: { '@nx/enforce-module-boundaries': boundaries(ANY_LIBRARY, ['@dc/testing']) } },
  { files: ['apps/gateway/**/*.ts'], rules: { '@nx/enforce-module-boundaries': boundaries(LAYERS, SERVICE_MODULES) } },
  {
    files: TESTS.map((pattern) => `apps/gateway/${pattern}`),
    rules: { '@nx/enforce-module-boundaries': boundaries(ANY_LIBRARY, ['@dc/testing', ...SERVICE_MODULES]) },
  },
];
