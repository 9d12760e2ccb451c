import path from 'node:path';
import { ESLint } from 'eslint';

/**
 * The lint configuration CI runs (`npm run lint`) refuses a regular
 * expression that backtracks super-linearly in server, shared and
 * integration code. Checked through the real configuration, on the pattern
 * that let one request URL hold the event loop for seconds.
 */
describe('lint: regular expressions are linear', () => {
  const eslint = new ESLint({ cwd: path.resolve(__dirname, '../..') });
  const rulesHit = async (code: string, filePath = 'backend/src/common/logging/probe.ts') => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.map((m) => m.ruleId);
  };

  it('flags the log scrubber pattern that backtracked cubically on request URLs', async () => {
    const oldScrubberPattern = [
      "const SENSITIVE_WORD = '(?:password|passwd|token|secret|api[_-]?key|key|credentials?|authorization|code)';",
      'export const NAME_VALUE = new RegExp(`(\\\\b[\\\\w-]*${SENSITIVE_WORD}[\\\\w-]*\\\\s*[=:]\\\\s*)([^\\\\s&,;"\']+)`, \'gi\');',
    ].join('\n');
    expect(await rulesHit(oldScrubberPattern)).toContain('redos/linear-regex');
  });

  it('flags nested quantifiers and quadratic searches in shared and integration code', async () => {
    expect(await rulesHit('export const X = /^(a+)+$/;', 'shared/src/probe.ts')).toContain('regexp/no-super-linear-backtracking');
    expect(await rulesHit("export const trim = (s: string) => s.replace(/\\/+$/, '');", 'integrations/mcp-server/src/probe.ts')).toEqual(
      expect.arrayContaining(['regexp/no-super-linear-move', 'redos/linear-regex']),
    );
  });

  it('passes the linear rewrites', async () => {
    expect(await rulesHit("export const trim = (s: string) => s.replace(/(?<!\\/)\\/+$/, '');")).toEqual([]);
    expect(await rulesHit('export const NAME = /(?<![\\w-])[\\w-]+\\s*[=:]\\s*/g;')).toEqual([]);
  });
});
