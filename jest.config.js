/**
 * One jest run, eight projects: unit (node), api (the real Nest app over
 * HTTP), api-once (API suites whose subject does not depend on the database),
 * web (React components in jsdom), browser (Chromium against the real app),
 * lighthouse (the public pages' scores in Chromium), desktop (the Electron
 * main process under Node) and integrations (the MCP server, the n8n node,
 * the SDK and the CLI against a real app). TypeScript is compiled by SWC with
 * decorator metadata, as in the build.
 *
 * CI runs unit and api on both databases (PostgreSQL and the embedded one);
 * api-once, web, browser, lighthouse, desktop and integrations do not depend
 * on which database serves them and run once, on PostgreSQL (see .ci/run).
 */
const swc = (react) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: react },
      transform: { legacyDecorator: true, decoratorMetadata: true, ...(react ? { react: { runtime: 'automatic' } } : {}) },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const common = {
  rootDir: __dirname,
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/out/'],
};

/**
 * Projects whose tests start servers: on the embedded database, the run
 * migrates one cluster first and each server's database loads it instead of
 * migrating its own (test/support/test-database.ts). Jest runs it once per
 * run for all of them, and only when one of them has tests to run.
 */
const embeddedCluster = {
  globalSetup: '<rootDir>/test/support/embedded-cluster.global-setup.ts',
  globalTeardown: '<rootDir>/test/support/embedded-cluster.global-teardown.ts',
};

/**
 * Projects that load the server: TypeScript, plus the one ES-module-only
 * package the server requires (content-disposition, under @fastify/static).
 * Node loads it with require() on its own; jest does not, so it is compiled
 * to CommonJS like the sources.
 */
const ESM_DEPENDENCIES = 'content-disposition';
const serverTransform = {
  transform: { '^.+\\.ts$': swc(false), [`/node_modules/(.+/)?${ESM_DEPENDENCIES}/.+\\.js$`]: swc(false) },
  transformIgnorePatterns: [`/node_modules/(?!(.+/node_modules/)?${ESM_DEPENDENCIES}/)`],
};

/**
 * API suites that need a server (and so a database) but test something the
 * database kind cannot change: the OpenAPI documents, public pages and their
 * host guards, response headers, request parsing, the executor's address,
 * redirect and connection policies, the client address behind proxies, which
 * role may call which route, which callers the dev outbox answers, and how a
 * run's request is signed (checked by the published verification snippets).
 */
const API_ONCE = [
  'openapi',
  'accounts-role-matrix',
  'openapi-dashboard',
  'openapi-contract',
  'site-pages',
  'site-host-guards',
  'security-headers',
  'security-linear-parsing',
  'security-redirects',
  'security-target-addresses',
  'security-client-address',
  'security-deployment-health-poll',
  'ssrf-target-policy',
  'executor-ssrf',
  'reliability-hung-targets',
  'security-dev-outbox',
  'jobs-signed-requests',
].map((name) => `<rootDir>/test/api/${name}.e2e-spec.ts`);

/** A test file's path (as testMatch names it) as a testPathIgnorePatterns entry. */
const ignoring = (file) => file.replace('<rootDir>', '').replace(/\./g, '\\.');

/**
 * Lighthouse's performance score is a measurement of the page on the CPU it
 * gets: beside another test file on 2 cores the same pages scored 67-87, alone
 * 98-100. Its own project, so CI runs it with nothing beside it (.ci/run).
 */
const LIGHTHOUSE = '<rootDir>/test/browser/site-lighthouse.e2e-spec.ts';

module.exports = {
  // A global option: jest ignores testTimeout inside project entries. Generous because
  // API and browser tests boot a server and a database on a 2-core machine.
  testTimeout: 120_000,
  // Every API file leaves ~40 MB on the heap of the process that ran it (each loads the server's modules
  // afresh): in one process, run in band, the heap reached 2 GB after 49 of the embedded pass's files and
  // its collections held the event loop - which the embedded database and the server share - long enough for
  // the steady-stream test to claim runs after their instant (CI of 2026-11-28). A worker whose heap passed
  // this after a file is replaced by a fresh one. Set, jest never runs in band, --maxWorkers=1 included.
  workerIdleMemoryLimit: '1GB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      ...embeddedCluster,
      testEnvironment: 'node',
      transform: { '^.+\\.ts$': swc(false) },
      testMatch: [
        '<rootDir>/backend/src/**/*.spec.ts',
        '<rootDir>/shared/src/**/*.spec.ts',
        '<rootDir>/test/unit/**/*.spec.ts',
      ],
    },
    {
      ...common,
      displayName: 'api',
      ...embeddedCluster,
      testEnvironment: 'node',
      ...serverTransform,
      testMatch: ['<rootDir>/test/api/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, ...API_ONCE.map(ignoring)],
    },
    {
      ...common,
      displayName: 'api-once',
      ...embeddedCluster,
      testEnvironment: 'node',
      ...serverTransform,
      testMatch: API_ONCE,
    },
    {
      ...common,
      displayName: 'web',
      testEnvironment: 'jsdom',
      transform: { '^.+\\.tsx?$': swc(true) },
      testMatch: ['<rootDir>/web/**/*.spec.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/test/support/web-test-setup.ts'],
      moduleNameMapper: { ...common.moduleNameMapper, '\\.(css)$': '<rootDir>/test/support/style-stub.js' },
    },
    {
      ...common,
      displayName: 'browser',
      ...embeddedCluster,
      testEnvironment: 'node',
      ...serverTransform,
      testMatch: ['<rootDir>/test/browser/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, ignoring(LIGHTHOUSE)],
    },
    {
      ...common,
      displayName: 'lighthouse',
      ...embeddedCluster,
      testEnvironment: 'node',
      ...serverTransform,
      testMatch: [LIGHTHOUSE],
    },
    {
      ...common,
      displayName: 'desktop',
      ...embeddedCluster,
      testEnvironment: 'node',
      ...serverTransform,
      testMatch: ['<rootDir>/desktop/main/**/*.spec.ts', '<rootDir>/desktop/preload/**/*.spec.ts', '<rootDir>/test/desktop/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integrations',
      ...embeddedCluster,
      testEnvironment: 'node',
      ...serverTransform,
      // The n8n node's tests live outside its package folder: n8n's own lint (n8n-node lint) checks every file there.
      testMatch: ['<rootDir>/integrations/*/test/**/*.spec.ts', '<rootDir>/integrations/*/src/**/*.spec.ts', '<rootDir>/test/n8n-node/**/*.spec.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '/integrations/[^/]+/dist/'],
    },
  ],
};
