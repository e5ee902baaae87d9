// @ts-check
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * Who writes which table (docs/architecture.md, "Tables and their owners"). Every other place writes
 * none: it calls the owner's API. Tests, fixtures and benchmarks arrange data as they need.
 */
const TABLE_WRITERS = {
  'services/console': [
    'restaurants',
    'sections',
    'items',
    'integrator_orgs',
    'api_keys',
    'connect_links',
    'grants',
    'platform_settings',
    'audit_events',
    'accounts',
    'memberships',
    'account_sessions',
    'sign_in_links',
  ],
  'services/webhooks': ['webhook_endpoints', 'webhook_deliveries', 'notifications', 'menu_update_bursts', 'outbox_events'],
  'services/catalog': [],
  'services/concierge': [],
  'services/gateway': ['gateway_daily_counts'],
  'packages/db': ['outbox_events'],
  'packages/http': ['idempotency_records'],
  'packages/entitlements': ['usage_counters'],
  'packages/{contracts,auth,signing,views,assets,sdk,embed,sample-dish,tracing}': [],
};

/** Kysely's write builders, and raw `sql` that writes, naming a table outside `tables`. */
function writesOutside(place, tables) {
  const owned = tables.length ? `(?!(?:${tables.join('|')})\\b)` : '';
  const message = `${place} writes only the tables it owns (${tables.join(', ') || 'none'}): change another owner's table through its API (docs/architecture.md).`;
  return [
    {
      selector: `CallExpression[callee.property.name=/^(insertInto|updateTable|deleteFrom|mergeInto|replaceInto)$/] > Literal.arguments:first-child[value=/^${owned}[a-z_]+/]`,
      message,
    },
    {
      selector: `TaggedTemplateExpression[tag.name="sql"] TemplateElement[value.raw=/(insert into|delete from|(?<!(?:do|for) )update) +${owned}[a-z_]+/i]`,
      message,
    },
  ];
}

const tableOwnership = Object.entries(TABLE_WRITERS).map(([place, tables]) => ({
  files: [`${place}/src/**/*.ts`],
  ignores: ['**/*.test.ts', '**/src/testing/**', '**/bench/**', '**/migrations/**', '**/migrate*.ts'],
  rules: { 'no-restricted-syntax': ['error', ...writesOutside(place, tables)] },
}));

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
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      // An async function without await is how a sync body meets a Promise-returning interface.
      '@typescript-eslint/require-await': 'off',
    },
  },
  ...tableOwnership,
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
