/**
 * Creates (or brings up to date) the Stripe products and prices the billing
 * module finds by lookup key (basic_monthly, basic_annual, pro_monthly,
 * pro_annual), from the prices in shared/src/plans.ts. Safe to run again.
 *
 *   STRIPE_SECRET_KEY=sk_test_... npm run billing:setup
 *
 * STRIPE_API_BASE points it at another endpoint (a local stand-in).
 */
import { AppConfig, ConfigError } from '../backend/src/config/app-config';
import { syncBillingCatalog } from '../backend/src/modules/billing/billing-catalog';
import { createStripeClient } from '../backend/src/modules/billing/stripe-gateway';

async function main(): Promise<void> {
  const config = AppConfig.fromEnvironment(process.env);
  const key = config.env.STRIPE_SECRET_KEY;
  if (!key) throw new ConfigError(['STRIPE_SECRET_KEY: required (the secret key of the Stripe account to set up)']);
  const changes = await syncBillingCatalog(createStripeClient(key, config.env.STRIPE_API_BASE));
  for (const change of changes) process.stdout.write(`${change.action.padEnd(9)}  ${change.item.padEnd(26)}  ${change.id}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `billing:setup failed: ${error.message}`}\n`);
  process.exit(1);
});
