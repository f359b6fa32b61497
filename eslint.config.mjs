import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', '**/test-artifacts/**', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // Embedded mode: the gateway composes every service module into one process.
          allow: ['@dc/service-identity', '@dc/service-catalogue', '@dc/service-search', '@dc/service-requests', '@dc/service-relations', '@dc/service-jobs'],
          depConstraints: [
            { sourceTag: 'platform:neutral', onlyDependOnLibsWithTags: ['platform:neutral'] },
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['platform:neutral'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server'] },
            { sourceTag: 'scope:service', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server', 'type:app'] },
            { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['platform:neutral', 'scope:server'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', { allow: ['@dc/testing', '@dc/service-identity', '@dc/service-catalogue', '@dc/service-search', '@dc/service-requests', '@dc/service-relations', '@dc/service-jobs'], depConstraints: [{ sourceTag: '*', onlyDependOnLibsWithTags: ['*'] }] }] },
  },
];
