import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { StripeStandIn } from '../fakes/stripe-server';

jest.setTimeout(60_000);

const run = promisify(execFile);
const root = resolve(__dirname, '../..');

/** `npm run billing:setup` against the Stripe stand-in: products and prices from shared/src/plans.ts, idempotent. */
describe('npm run billing:setup', () => {
  let stripe: StripeStandIn;

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
  });
  afterAll(async () => stripe?.close());

  const setup = (env: Record<string, string> = stripe.serverEnv()) =>
    run(process.execPath, ['-r', '@swc-node/register', 'scripts/billing-setup.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', SWC_NODE_PROJECT: 'tsconfig.backend.json', ...env },
    });
  const activeByKey = () =>
    Object.fromEntries([...stripe.prices.values()].filter((p) => p.active && p.lookup_key).map((p) => [p.lookup_key, [p.product, p.unit_amount, p.recurring.interval]]));

  it('creates the two products and four prices, then changes nothing on a second run', async () => {
    const first = await setup();
    expect(first.stdout.split('\n').filter((l) => l.startsWith('created'))).toHaveLength(6);
    expect(activeByKey()).toEqual({
      basic_monthly: ['cronbeam_basic', 980, 'month'],
      basic_annual: ['cronbeam_basic', 9480, 'year'],
      pro_monthly: ['cronbeam_pro', 5990, 'month'],
      pro_annual: ['cronbeam_pro', 44400, 'year'],
    });
    const second = await setup();
    expect(second.stdout.split('\n').filter((l) => l.startsWith('unchanged'))).toHaveLength(6);
    expect(stripe.prices.size).toBe(4);
    expect(stripe.products.size).toBe(2);
  });

  it('replaces a price whose amount differs: the lookup key moves to the new one and the old one is archived', async () => {
    const stale = [...stripe.prices.values()].find((p) => p.lookup_key === 'pro_monthly')!;
    stale.unit_amount = 4900;
    const out = await setup();
    expect(out.stdout).toMatch(/^replaced\s+price pro_monthly/m);
    expect(stale).toMatchObject({ active: false, lookup_key: null });
    expect(activeByKey().pro_monthly).toEqual(['cronbeam_pro', 5990, 'month']);
  });

  it('refuses to run without STRIPE_SECRET_KEY', async () => {
    await expect(setup({})).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('STRIPE_SECRET_KEY') });
  });
});
