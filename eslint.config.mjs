// @ts-check
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '.data/**', 'bench-results/**', 'screenshots/**', '**/*.mjs', '**/*.cjs'],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.shared.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Every promise is awaited, returned or explicitly voided: a forgotten one loses its error.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      // An async function without await is how a sync body meets a Promise-returning interface.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Migrations are frozen in time: they run on Kysely<any>, never on today's schema types (Kysely's advice).
    files: ['packages/db/src/migrat*.ts', 'packages/db/src/migrations/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Tests read HTTP bodies (supertest's \`any\`) and JSON they just parsed: asserting on them is the point,
    // so the any-tracking rules stay for production code only.
    files: ['**/*.test.ts', 'e2e/**', '**/src/testing/**', '**/bench/**', 'packages/testing/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
