import { HttpStatus, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { BILLING_MESSAGES } from '@cronbeam/shared/billing/billing-types';
import { priceLookupKey, type BillingInterval, type PaidPlanId } from '@cronbeam/shared/plans';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';

/** Where the client sends its requests: Stripe itself, or the endpoint STRIPE_API_BASE names (a stand-in in tests). */
export function stripeEndpoint(apiBase: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** A Stripe client for a secret key, pointed at STRIPE_API_BASE when set. */
export function createStripeClient(secretKey: string, apiBase: string | undefined): Stripe {
  return new Stripe(secretKey, { ...stripeEndpoint(apiBase), maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'Cronbeam' } });
}

/**
 * The Stripe client, or nothing when STRIPE_SECRET_KEY is unset (billing is
 * then off and every billing call answers 503). Provider outages become a
 * 503 the user can retry; price ids are looked up once by their lookup keys.
 */
@Injectable()
export class StripeGateway {
  private readonly client: Stripe | null;
  private readonly priceIds = new Map<string, string>();

  constructor(private readonly config: AppConfig) {
    const key = config.env.STRIPE_SECRET_KEY;
    this.client = key ? createStripeClient(key, config.env.STRIPE_API_BASE) : null;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  /** Runs one provider call; connection and provider-side failures answer 503 instead of a 500. */
  async call<T>(operation: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = this.require();
    try {
      return await operation(stripe);
    } catch (error) {
      if (
        error instanceof Stripe.errors.StripeConnectionError ||
        error instanceof Stripe.errors.StripeAPIError ||
        error instanceof Stripe.errors.StripeRateLimitError
      ) {
        throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, BILLING_MESSAGES.providerUnavailable);
      }
      throw error;
    }
  }

  /** The id of the active price for a plan and interval (created by `npm run billing:setup`). */
  async priceId(plan: PaidPlanId, interval: BillingInterval): Promise<string> {
    const key = priceLookupKey(plan, interval);
    const cached = this.priceIds.get(key);
    if (cached) return cached;
    const prices = await this.call((s) => s.prices.list({ lookup_keys: [key], active: true, limit: 1 }));
    const price = prices.data[0];
    if (!price) throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, BILLING_MESSAGES.pricesMissing);
    this.priceIds.set(key, price.id);
    return price.id;
  }

  /** Verifies the signature over the exact bytes received; throws a 400 for anything forged, stale or malformed. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    const stripe = this.require();
    const secret = this.config.env.STRIPE_WEBHOOK_SECRET;
    if (!secret) throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, BILLING_MESSAGES.notConfigured);
    if (!signature) throw ApiError.badRequest(BILLING_MESSAGES.invalidSignature);
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw ApiError.badRequest(BILLING_MESSAGES.invalidSignature);
    }
  }

  private require(): Stripe {
    if (!this.client) throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, BILLING_MESSAGES.notConfigured);
    return this.client;
  }
}
