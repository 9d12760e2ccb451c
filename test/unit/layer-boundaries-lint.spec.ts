import path from 'node:path';
import { ESLint } from 'eslint';

/**
 * The lint configuration CI runs (`npm run lint`) keeps the top-level parts
 * apart: the web app and the public site never import the server or the
 * desktop shell, the desktop shell never imports the web app's files, shared/
 * imports none of them, and the server none of the clients. Checked through
 * the real configuration, with files placed where the rule applies. The
 * integrations are clients of /prog: they import @cronbeam/shared and the SDK,
 * never the server, the web app or the desktop shell.
 */
describe('lint: web, desktop, integrations, shared and backend import only what their layer may', () => {
  const eslint = new ESLint({ cwd: path.resolve(__dirname, '../..') });
  const layerHits = async (code: string, filePath: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.filter((m) => m.ruleId === 'layers/boundaries').map((m) => m.message);
  };

  it('flags the web app importing the server, and the public site loading the desktop shell', async () => {
    const app = "import { JobsService } from '../../backend/src/modules/jobs/jobs.service';\nexport const probe = JobsService;";
    expect(await layerHits(app, 'web/app/probe.tsx')).toEqual([expect.stringContaining("'../../backend/src/modules/jobs/jobs.service' is inside backend/, which web/ may not import")]);
    const site = "export const load = () => import('../../../desktop/main/tray/tray-model');";
    expect(await layerHits(site, 'web/site/pages/probe.tsx')).toEqual([expect.stringContaining('is inside desktop/, which web/ may not import')]);
  });

  it("flags the desktop shell importing the web app's internals", async () => {
    const main = "export { apiRequest } from '../../web/app/api/api-client';";
    expect(await layerHits(main, 'desktop/main/probe.ts')).toEqual([expect.stringContaining('is inside web/, which desktop/ may not import')]);
  });

  it('flags shared/ importing the server through a relative path, and the server importing the site', async () => {
    const shared = "import type { AppConfig } from '../../backend/src/config/app-config';\nexport type Probe = AppConfig;";
    expect(await layerHits(shared, 'shared/src/probe.ts')).toEqual([expect.stringContaining('which shared/ may not import')]);
    const backend = "import { SITE_PAGES } from '../../web/site/site-pages';\nexport const probe = SITE_PAGES;";
    expect(await layerHits(backend, 'backend/src/probe.ts')).toEqual([expect.stringContaining('is inside web/, which backend/src/ may not import')]);
  });

  it('flags the integrations importing the server or the web app, by relative path or through a workspace package', async () => {
    const mcp = "import { JobsService } from '../../../backend/src/modules/jobs/jobs.service';\nexport const probe = JobsService;";
    expect(await layerHits(mcp, 'integrations/mcp-server/src/probe.ts')).toEqual([expect.stringContaining('is inside backend/, which integrations/ may not import')]);
    const n8n = "import { SITE_PAGES } from '../../../../web/site/site-pages';\nexport const probe = SITE_PAGES;";
    expect(await layerHits(n8n, 'integrations/n8n-node/nodes/shared/probe.ts')).toEqual([expect.stringContaining('is inside web/, which integrations/ may not import')]);
    const cli = "import { trayModel } from '@cronbeam/desktop/main/tray/tray-model';\nexport const probe = trayModel;";
    expect(await layerHits(cli, 'integrations/cli/src/probe.ts')).toEqual([expect.stringContaining('is inside desktop/, which integrations/ may not import')]);
  });

  it('passes @cronbeam/shared everywhere, and the app using the site inside web/', async () => {
    expect(await layerHits("import { PLAN_LIMITS } from '@cronbeam/shared/plans';\nexport const probe = PLAN_LIMITS;", 'web/app/probe.tsx')).toEqual([]);
    expect(await layerHits("import { ipcInvokeSchemas } from '@cronbeam/shared/desktop/ipc-contract';\nexport const probe = ipcInvokeSchemas;", 'desktop/main/probe.ts')).toEqual([]);
    expect(await layerHits("import { JOB_LIMITS } from '@cronbeam/shared/jobs/job-limits';\nexport const probe = JOB_LIMITS;", 'integrations/mcp-server/src/probe.ts')).toEqual([]);
    expect(await layerHits("import { progPath } from '@cronbeam/sdk/core';\nexport const probe = progPath;", 'desktop/main/probe.ts')).toEqual([]);
    expect(await layerHits("import { SITE_NAME } from '../../site/site-meta';\nexport const probe = SITE_NAME;", 'web/app/billing/probe.tsx')).toEqual([]);
  });
});
