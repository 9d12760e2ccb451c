import fc from 'fast-check';
import { jobDefinitionSchema, JOB_MESSAGES } from '@cronbeam/shared/jobs/job-rules';
import { responseRulesSchema, RESPONSE_RULE_MESSAGES } from '@cronbeam/shared/jobs/response-rules';
import { jobDefinitionWithoutName } from '../support/job-shapes';

const withName = jobDefinitionWithoutName.map((definition) => ({ name: 'round-trip', ...definition }));
const readOnlyFields = fc.record({
  job_id: fc.uuid(),
  status: fc.constantFrom('pending', 'scheduled', 'success', 'failed', 'paused', 'quota_reached'),
  next_run_at: fc.oneof(fc.constant(null), fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
  last_run_at: fc.oneof(fc.constant(null), fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
  created_at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  updated_at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
});

/** The job rules take back what they produce: what the API stores and answers is a valid definition that stays as it is. */
describe('job definition round trip', () => {
  it('a validated definition, sent again with or without the fields the server sets, validates to itself (property)', () => {
    fc.assert(
      fc.property(withName, readOnlyFields, (sent, serverFields) => {
        const stored = jobDefinitionSchema.parse(sent);
        const answered = JSON.parse(JSON.stringify({ ...stored, ...serverFields }));
        expect(jobDefinitionSchema.parse(answered)).toEqual(stored);
        expect(jobDefinitionSchema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
      }),
      { numRuns: 500 },
    );
  });

  it('takes a JSON value of -0 as 0, which is what JSON text, the database and the comparison make of it', () => {
    // Found by the property above (seed -165623437): -0 was kept, and came back from the API as 0.
    const stored = jobDefinitionSchema.parse({ name: 'round-trip', url: 'https://example.com/a', every_seconds: 1, response_rules: { json_path: '$.status', json_equals: -0 } });
    expect(Object.is(stored.response_rules?.json_equals, 0)).toBe(true);
    expect(jobDefinitionSchema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
  });

  it.each([
    ['body_contains only', { body_contains: 'ok' }],
    ['expected_status only', { expected_status: '200-299, 304' }],
    ['a JSON path and its value', { json_path: '$.status', json_equals: 'ok' }],
    ['a JSON path that must hold null', { json_path: '$.error', json_equals: null }],
    ['every rule', { expected_status: '200', body_contains: 'ok', json_path: '$.ok', json_equals: true }],
    ['no rule', {}],
  ])('rules with %s come back as the API answers them, and that answer is accepted unchanged', (_shape, rules) => {
    const stored = responseRulesSchema.parse(rules);
    expect(stored).toEqual({ expected_status: '200-299', body_contains: null, json_path: null, json_equals: null, ...rules });
    expect(responseRulesSchema.parse(stored)).toEqual(stored);
  });

  it.each([
    ['a path without its value', { json_path: '$.a' }],
    ['a value without its path', { json_equals: 'ok' }],
    ['a value with a null path', { json_path: null, json_equals: 0 }],
  ])('still refuses %s', (_case, rules) => {
    const result = responseRulesSchema.safeParse(rules);
    expect(result.error?.issues.map((i) => i.message)).toEqual([RESPONSE_RULE_MESSAGES.jsonPair]);
  });

  it('refuses a server-set field of the wrong type, naming it', () => {
    const result = jobDefinitionSchema.safeParse({ name: 'a', url: 'https://example.com/', cron_expression: '* * * * *', status: 'asleep' });
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[['status'], JOB_MESSAGES.readOnly('status')]]);
  });
});
