import { getStaticValue } from '@eslint-community/eslint-utils';
import { checkSync } from 'recheck';

/**
 * Every regular expression whose pattern is known without running the code
 * (a literal, or `new RegExp(...)` / `RegExp(...)` built from constants and
 * template strings) must run in time linear in its input. recheck decides it
 * by automata analysis, or by fuzzing with a fixed seed when the pattern has
 * lookarounds or is large. It finds what regexp/no-super-linear-* cannot:
 * two quantified runs separated by text they can also match, as in
 * `[\w-]*token[\w-]*=`, which backtracked cubically on a request URL.
 */
// recheck's fuzzer takes a candidate whose match runs past a wall-clock limit for a slow one, so its default
// limits made the verdict depend on the machine's load: at a load average of 15 on 2 cores it called the linear
// `(?<![\w-])[\w-]+\s*[=:]\s*` quadratic in one run of two, and lint failed on unchanged code. Ten times the
// defaults (incubation 250 ms, attack 1 s, seeding 100 ms) gave the right verdict in every run at that load
// and still finds the quadratic patterns of test/unit/linear-regex-lint.spec.ts in about 4 s each; step limits
// (characters the matcher reads) decide the rest, and the seed is fixed.
const RECHECK_OPTIONS = {
  randomSeed: 29,
  timeout: 600_000,
  incubationTimeout: 2_500,
  attackTimeout: 10_000,
  seedingTimeout: 1_000,
};

/** Results by pattern and flags: the same pattern often appears in several files. */
const verdicts = new Map();

function verdictOf(source, flags) {
  const key = `/${source}/${flags}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = checkSync(source, flags, RECHECK_OPTIONS);
    verdicts.set(key, verdict);
  }
  return verdict;
}

export const linearRegex = {
  meta: {
    type: 'problem',
    docs: { description: 'Regular expressions run in time linear in their input' },
    messages: {
      superLinear: 'This regular expression takes {{summary}} time on a hostile input such as {{attack}}: rewrite it so that no two quantifiers can match the same text, or tokenise first',
      undecided: 'Cannot tell whether this regular expression is linear ({{reason}}): simplify it',
    },
    schema: [],
  },
  create(context) {
    const check = (node, source, flags) => {
      const verdict = verdictOf(source, flags);
      if (verdict.status === 'vulnerable') {
        const attack = verdict.attack.pattern.slice(0, 80);
        context.report({ node, messageId: 'superLinear', data: { summary: verdict.complexity.summary, attack } });
      } else if (verdict.status === 'unknown') {
        context.report({ node, messageId: 'undecided', data: { reason: verdict.error.kind } });
      }
    };
    const checkConstructed = (node) => {
      if (node.callee.type !== 'Identifier' || node.callee.name !== 'RegExp' || node.arguments.length === 0) return;
      const scope = context.sourceCode.getScope(node);
      const source = getStaticValue(node.arguments[0], scope);
      const flags = node.arguments[1] ? getStaticValue(node.arguments[1], scope) : { value: '' };
      if (typeof source?.value === 'string' && typeof flags?.value === 'string') check(node, source.value, flags.value);
    };
    return {
      Literal(node) {
        if (node.regex) check(node, node.regex.pattern, node.regex.flags);
      },
      NewExpression: checkConstructed,
      CallExpression: checkConstructed,
    };
  },
};
