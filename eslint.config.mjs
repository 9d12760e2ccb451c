import js from '@eslint/js';
import n8nCommunityNodes from '@n8n/eslint-plugin-community-nodes';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import regexpPlugin from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerBoundaries } from './eslint-rules/layer-boundaries.mjs';
import { linearRegex } from './eslint-rules/linear-regex.mjs';
import { moduleBoundaries } from './eslint-rules/module-boundaries.mjs';
import { sqlInRepositories } from './eslint-rules/sql-in-repositories.mjs';

/**
 * Files of the scheduler, runs and executor modules that still issue SQL
 * outside a repository while those modules are being reworked: a temporary
 * list, to empty (each entry goes when its statements move into a repository).
 */
const SQL_OUTSIDE_REPOSITORIES_FOR_NOW = ['backend/src/modules/scheduler/database-clock.ts', 'backend/src/modules/scheduler/wake-channel.ts'];

/**
 * Which top-level part may not import which (docs/adr/0144-web-and-desktop-layout.md): the web app and the
 * public site reach the server over HTTP; the desktop shell loads the web build and talks to it over the IPC
 * contract in shared/; the integrations are clients of /prog; shared/ (the package @cronbeam/shared, ADR 0179)
 * is used by everyone and so imports no one.
 */
const SERVER = { dir: 'backend', why: 'the server is reached over HTTP; shared rules and types live in @cronbeam/shared' };
const LAYERS = {
  web: [SERVER, { dir: 'desktop', why: 'the desktop shell is reached through its preload bridge (@cronbeam/shared/desktop/ipc-contract)' }],
  desktop: [SERVER, { dir: 'web', why: 'the window loads the web build; what both need belongs in @cronbeam/shared' }],
  integrations: [
    { dir: 'backend', why: 'the integrations are clients of /prog; shared rules and types live in @cronbeam/shared' },
    { dir: 'web', why: 'the integrations are clients of /prog, not of the web app' },
    { dir: 'desktop', why: 'the integrations are clients of /prog, not of the desktop shell' },
  ],
  shared: [SERVER, { dir: 'web', why: 'shared/ is used by every part and imports none' }, { dir: 'desktop', why: 'shared/ is used by every part and imports none' }],
  'backend/src': [
    { dir: 'web', why: 'the server serves the web build from dist/web; what both need belongs in shared/' },
    { dir: 'desktop', why: 'what the server and the desktop shell share belongs in shared/' },
  ],
};

/** The workspace packages (root package.json's workspaces) by name, and the folder each resolves to. */
const WORKSPACE_PACKAGES = {
  '@cronbeam/shared': 'shared/src',
  '@cronbeam/sdk': 'integrations/sdk/src',
  '@cronbeam/desktop': 'desktop',
  '@cronbeam/mcp-server': 'integrations/mcp-server/src',
  '@cronbeam/cli': 'integrations/cli/src',
};

export default tseslint.config(
  { ignores: ['dist/**', 'integrations/*/dist/**', 'out/**', 'desktop/out/**', 'node_modules/**', 'coverage/**', 'data/**', 'test/browser/screenshots/**', '**/*.js', '!.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Nest resolves constructor parameters from emitted decorator metadata: their types must stay value imports.
    files: ['backend/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // The backend's import graph has no cycle, and a module uses only another module's public files.
    files: ['backend/src/**/*.ts', 'shared/src/**/*.ts'],
    plugins: { 'import-x': importX, cronbeam: { rules: { 'module-boundaries': moduleBoundaries('backend/src/modules') } } },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'cronbeam/module-boundaries': 'error',
    },
  },
  {
    files: ['backend/src/**/*.ts', 'shared/src/**/*.ts', 'web/**/*.ts', 'web/**/*.tsx', 'desktop/**/*.ts', 'integrations/**/*.ts'],
    // Workspace packages are resolved to their folders, so a package name cannot smuggle a forbidden import past the rule.
    plugins: { layers: { rules: { boundaries: layerBoundaries('.', LAYERS, WORKSPACE_PACKAGES) } } },
    rules: { 'layers/boundaries': 'error' },
  },
  {
    // Only repositories issue SQL (docs/adr/0001-backend-modules.md).
    files: ['backend/src/modules/**/*.ts'],
    plugins: { sql: { rules: { 'in-repositories': sqlInRepositories('backend/src/modules') } } },
    rules: { 'sql/in-repositories': ['error', { allow: SQL_OUTSIDE_REPOSITORIES_FOR_NOW }] },
  },
  {
    // No regular expression whose worst case is super-linear in its input: the server, the shared rules and the
    // integrations run patterns over text a client sends, and one backtracking pattern lets a single request
    // hold the event loop for seconds (docs/adr/0120-linear-parsing-and-client-address.md).
    files: ['backend/src/**/*.ts', 'shared/src/**/*.ts', 'integrations/*/src/**/*.ts', 'integrations/n8n-node/nodes/**/*.ts', 'integrations/n8n-node/credentials/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    plugins: { regexp: regexpPlugin, redos: { rules: { 'linear-regex': linearRegex } } },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
      'redos/linear-regex': 'error',
    },
  },
  {
    // n8n's own rules for community nodes (the subset that installs with npm: see docs/adr/0050).
    files: ['integrations/n8n-node/credentials/**/*.ts', 'integrations/n8n-node/nodes/**/*.ts'],
    ...n8nCommunityNodes.configs.recommended,
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.spec.tsx', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off' },
  },
);
