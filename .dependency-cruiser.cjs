/**
 * The architecture's boundaries, checked in CI (docs/architecture.md). Workspace packages resolve to
 * their TypeScript sources (the `source` export condition), so a rule sees the real file imported.
 */
const TESTS = '\\.test\\.ts$|/src/testing/|^e2e/|/bench/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'service-imports-another-service',
      comment:
        'Services deploy on their own and share no code paths: a service reaches another only over HTTP ' +
        '(its internal API). Move shared code into a package, or call the owner.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'package-imports-a-service',
      comment: 'Packages are what services share; they never reach into a service.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^services/' },
    },
    {
      name: 'contracts-depend-on-zod-only',
      comment: 'The wire contracts are imported by everyone (services, the SDK): zod and nothing else.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { pathNot: ['^packages/contracts/', 'node_modules/zod/', 'node_modules/\\.pnpm/zod@'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'production-code-imports-test-tooling',
      comment:
        'Test databases, fixtures, vitest and supertest stay out of what ships (pnpm deploy --prod): ' +
        'only tests, benchmarks and e2e may use them.',
      severity: 'error',
      from: { path: '^(packages|services|infra)/', pathNot: [TESTS, '^packages/(testing|bench-kit)/'] },
      to: {
        path: [
          '^packages/(testing|bench-kit)/',
          'node_modules/(vitest|supertest|@vitest)/',
          'node_modules/\\.pnpm/(vitest|supertest|@vitest\\+)',
        ],
      },
    },
    {
      name: 'owned-tables-written-by-their-owner',
      comment:
        'A table is written only by its owning service (docs/architecture.md): repositories are not ' +
        "shared. Read another owner's table through @partner/db's read functions, change it through its owner.",
      severity: 'error',
      from: { path: '^(services/([^/]+)|packages/[^/]+)/' },
      to: { path: '\\.repository\\.ts$', pathNot: '^$1/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing: a package used without being declared in package.json.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(packages|services)/[^/]+/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'node', 'default'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
