import { Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { AppConfig } from '../../config/app-config';
import { TeamsService } from '../teams/teams.service';
import { MailService } from '../mail/mail.service';
import { paymentFailedMail } from './billing-mails';
import { BillingRepository, type SubscriptionRow } from './billing.repository';
import { BillingService, planName } from './billing.service';
import { StripeGateway } from './stripe-gateway';

const idOf = (value: string | { id: string } | null | undefined): string | null => (value ? (typeof value === 'string' ? value : value.id) : null);

/** The subscription an invoice bills, in the current API (`parent.subscription_details`). */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

/**
 * Applies Stripe's webhook events. Each event is applied once: its id is
 * claimed first, and a replay answers 200 without changing anything. Events
 * carry only a hint of what changed; the subscription is read back from
 * Stripe and its own state applied, so events arriving out of order, late or
 * twice all end in the same state.
 */
@Injectable()
export class BillingWebhooksService {
  private readonly logger = new Logger(BillingWebhooksService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly stripe: StripeGateway,
    private readonly repo: BillingRepository,
    private readonly billing: BillingService,
    private readonly teams: TeamsService,
    private readonly mail: MailService,
  ) {}

  /** `requestId`: the delivery's, which the audit entry of a change it applies records. */
  async receive(rawBody: Buffer, signature: string | undefined, requestId: string | null): Promise<{ received: true; duplicate?: true }> {
    const event = this.stripe.verifyEvent(rawBody, signature);
    if (!(await this.repo.claimEvent(event.id, event.type))) {
      this.logger.log({ eventId: event.id, type: event.type }, 'Stripe event already applied; replay ignored');
      return { received: true, duplicate: true };
    }
    try {
      await this.apply(event, requestId);
    } catch (error) {
      // Not applied: give the id back so Stripe's retry of this event is applied.
      await this.repo.releaseEvent(event.id);
      throw error;
    }
    return { received: true };
  }

  private async apply(event: Stripe.Event, requestId: string | null): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.mode === 'subscription') await this.syncSubscription(idOf(session.subscription), event, requestId);
        return;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        await this.syncSubscription(event.data.object.id, event, requestId);
        return;
      case 'invoice.paid': {
        const row = await this.syncSubscription(subscriptionOfInvoice(event.data.object), event, requestId);
        if (row) await this.billing.startPaidPeriod(row, requestId);
        return;
      }
      case 'invoice.payment_failed': {
        const row = await this.syncSubscription(subscriptionOfInvoice(event.data.object), event, requestId);
        if (row) await this.tellPaymentFailed(row);
        return;
      }
      default:
        this.logger.debug({ eventId: event.id, type: event.type }, 'Stripe event type not used');
    }
  }

  /** Reads the subscription back and applies it; null when there is none or it is not one of our customers'. */
  private async syncSubscription(subscriptionId: string | null, event: Stripe.Event, requestId: string | null): Promise<SubscriptionRow | null> {
    if (!subscriptionId) return null;
    let subscription: Stripe.Subscription;
    try {
      subscription = await this.stripe.call((s) => s.subscriptions.retrieve(subscriptionId));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
        this.logger.warn({ eventId: event.id, subscriptionId }, 'Stripe event for a subscription Stripe does not know; ignored');
        return null;
      }
      throw error;
    }
    const row = await this.billing.applySubscription(subscription, { kind: 'stripe', requestId });
    if (!row) this.logger.warn({ eventId: event.id, type: event.type }, 'Stripe event for an unknown customer; ignored');
    return row;
  }

  private async tellPaymentFailed(row: SubscriptionRow): Promise<void> {
    const [owner, plans] = await Promise.all([this.teams.ownerOf(row.accountId), this.teams.plansOf([row.accountId])]);
    const plan = plans.get(row.accountId);
    if (!owner || !plan) return;
    await this.mail.send(paymentFailedMail(owner.email, planName(plan), this.config.publicUrl));
  }
}
