import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import Stripe from 'stripe';
import {
  BILLING_MESSAGES,
  formatBillingDate,
  type CancelRequest,
  type CancelResponse,
  type CheckoutRequest,
  type CheckoutResponse,
  type PlanChangeRequest,
  type PlanChangeResponse,
  type ProfileStats,
} from '@cronbeam/shared/billing/billing-types';
import { PLAN_LIMITS, PLAN_RANK, type BillingInterval, type PaidPlanId, type PlanId } from '@cronbeam/shared/plans';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import type { AuthenticatedUser } from '../auth';
import type { Actor, AuditEntry } from '../audit';
import { AuditService } from '../audit/audit.service';
import { TeamsService } from '../teams/teams.service';
import { JobsService, type ResumedJob } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { QuotaService } from '../quota/quota.service';
import { jobsPausedMail } from './billing-mails';
import { BillingRepository, type SubscriptionRow } from './billing.repository';
import { StripeGateway } from './stripe-gateway';
import {
  entitledPlan,
  hasPendingDowngrade,
  isEntitling,
  KEPT_PLAN_KEY,
  KEPT_PLAN_UNTIL_KEY,
  subscriptionRowOf,
  subscriptionStatusOf,
} from './subscription-state';

/**
 * Whose change applySubscription applies: a member's request (its actor and
 * action; always one entry, showing what changed since the request read the
 * subscription and plan, `before`) or Stripe's webhook (no actor; an entry
 * only when the stored subscription or the plan changed; the delivery's
 * request id).
 */
export type AppliedBy =
  | { kind: 'member'; actor: Actor; action: string; before: { subscription: SubscriptionRow; plan: PlanId } }
  | { kind: 'stripe'; requestId: string | null };

/** A subscription as its audit entries show it: its state and plan, never a payment detail. */
function subscriptionView(row: SubscriptionRow | null): Record<string, unknown> {
  if (!row) return {};
  const at = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());
  return {
    status: row.stripeStatus,
    subscription_plan: row.plan,
    interval: row.interval,
    kept_plan: row.keptPlan,
    kept_plan_until: at(row.keptPlanUntil),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    current_period_end: at(row.currentPeriodEnd),
  };
}

/** The entry's changes: the subscription's fields that differ from what was stored, and the account's plan when it moved. */
function subscriptionChanges(before: SubscriptionRow | null, after: SubscriptionRow, planBefore: PlanId, planAfter: PlanId): AuditEntry['changes'] {
  const was = subscriptionView(before);
  const now = subscriptionView(after);
  const changes: AuditEntry['changes'] = {};
  if (planBefore !== planAfter) changes.plan = { before: planBefore, after: planAfter };
  for (const [field, value] of Object.entries(now)) {
    const old = field in was ? was[field] : null;
    if (old !== value) changes[field] = { before: old, after: value };
  }
  return changes;
}

/** True when moving to (plan, interval) should take effect at once and be billed today. */
function isUpgrade(from: { plan: PaidPlanId; interval: BillingInterval }, to: { plan: PaidPlanId; interval: BillingInterval }): boolean {
  if (PLAN_RANK[to.plan] !== PLAN_RANK[from.plan]) return PLAN_RANK[to.plan] > PLAN_RANK[from.plan];
  return from.interval === 'monthly' && to.interval === 'annual';
}

/**
 * Plans bought through Stripe: checkout for a first subscription, plan
 * changes (upgrades at once, downgrades at the end of the paid period),
 * cancellation, and applying a subscription's state to the account's plan, jobs
 * and quota. Every call is scoped to the calling user.
 */
@Injectable()
export class BillingService {
  private readonly logger = new Logger(BillingService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly stripe: StripeGateway,
    private readonly repo: BillingRepository,
    private readonly teams: TeamsService,
    private readonly jobs: JobsService,
    private readonly quota: QuotaService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {}

  /** The profile's subscription summary; answers without Stripe too (from what was last synced). */
  async profileStats(accountId: string): Promise<ProfileStats> {
    const plan = await this.teams.planOf(accountId);
    const row = await this.repo.currentSubscription(accountId);
    return {
      plan,
      subscription_status: subscriptionStatusOf(row, plan),
      cancel_at_period_end: row?.cancelAtPeriodEnd ?? false,
      current_period_end: row?.currentPeriodEnd ?? null,
      interval: row?.interval ?? null,
      scheduled_plan: row && isEntitling(row) && hasPendingDowngrade(row) ? row.plan : null,
      subscription_id: row?.subscriptionId ?? null,
      billing_enabled: this.stripe.enabled,
    };
  }

  async createCheckout(user: AuthenticatedUser, request: CheckoutRequest): Promise<CheckoutResponse> {
    const current = await this.repo.currentSubscription(user.accountId);
    if (isEntitling(current) && current.plan && current.interval) {
      // The same plan again is only a change while something is scheduled (a downgrade or the cancellation it undoes).
      if (current.plan === request.plan && current.interval === request.interval && !hasPendingDowngrade(current) && !current.cancelAtPeriodEnd) {
        throw ApiError.badRequest(BILLING_MESSAGES.alreadyOnPlan);
      }
      return {
        requires_confirmation: true,
        subscription_id: current.subscriptionId,
        current_plan: current.plan,
        current_interval: current.interval,
        formatted_end_date: current.currentPeriodEnd ? formatBillingDate(current.currentPeriodEnd) : '',
      };
    }
    const price = await this.stripe.priceId(request.plan, request.interval);
    const customer = await this.customerFor(user);
    const session = await this.stripe.call((s) =>
      s.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: user.accountId,
        line_items: [{ price, quantity: 1 }],
        subscription_data: { metadata: { account_id: user.accountId, user_id: user.id } },
        success_url: `${this.config.publicUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${this.config.publicUrl}/cancel`,
      }),
    );
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return { checkout_url: session.url };
  }

  /**
   * Moves a paying customer to another price of their subscription. An
   * upgrade (more jobs, or monthly to annual) applies now and is billed today
   * with proration; a downgrade changes the price from the next renewal
   * without proration, and the plan already paid for is kept until then.
   */
  async confirmPlanChange(actor: Actor, user: AuthenticatedUser, request: PlanChangeRequest): Promise<PlanChangeResponse> {
    const [row, planBefore] = await Promise.all([this.repo.subscriptionOfAccount(user.accountId, request.subscription_id), this.planNow(user.accountId)]);
    if (!row) throw ApiError.notFound(BILLING_MESSAGES.subscriptionNotFound);
    if (!isEntitling(row)) throw ApiError.badRequest(BILLING_MESSAGES.subscriptionNotActive);
    const subscription = await this.stripe.call((s) => s.subscriptions.retrieve(row.subscriptionId));
    const fresh = subscriptionRowOf(subscription, user.accountId);
    const item = subscription.items.data[0];
    if (!isEntitling(fresh) || !item || !fresh.plan || !fresh.interval) {
      // Ended at Stripe before its webhook arrived: store what Stripe says (Stripe's change, not this refused request's), and refuse.
      await this.applySubscription(subscription, { kind: 'stripe', requestId: null });
      throw ApiError.badRequest(BILLING_MESSAGES.subscriptionNotActive);
    }
    const price = await this.stripe.priceId(request.plan, request.interval);
    // What the customer has paid for this period: the kept plan during a pending downgrade.
    const paidFor = { plan: fresh.keptPlan && hasPendingDowngrade(fresh) ? fresh.keptPlan : fresh.plan, interval: fresh.interval };
    const target = { plan: request.plan, interval: request.interval };
    if (target.plan === fresh.plan && target.interval === fresh.interval && !hasPendingDowngrade(fresh) && !fresh.cancelAtPeriodEnd) {
      throw ApiError.badRequest(BILLING_MESSAGES.alreadyOnPlan);
    }
    const clearKept = { [KEPT_PLAN_KEY]: '', [KEPT_PLAN_UNTIL_KEY]: '' };
    let updated: Stripe.Subscription;
    if (isUpgrade(paidFor, target) || (target.plan === paidFor.plan && target.interval === paidFor.interval)) {
      updated = await this.stripe.call((s) =>
        s.subscriptions.update(row.subscriptionId, {
          items: [{ id: item.id, price }],
          proration_behavior: 'always_invoice',
          cancel_at_period_end: false,
          metadata: clearKept,
        }),
      );
    } else {
      const until = fresh.currentPeriodEnd ?? Math.floor(Date.now() / 1000);
      updated = await this.stripe.call((s) =>
        s.subscriptions.update(row.subscriptionId, {
          items: [{ id: item.id, price }],
          proration_behavior: 'none',
          cancel_at_period_end: false,
          metadata: { [KEPT_PLAN_KEY]: paidFor.plan, [KEPT_PLAN_UNTIL_KEY]: String(until) },
        }),
      );
    }
    const applied = await this.applySubscription(updated, { kind: 'member', actor, action: 'subscription.plan_changed', before: { subscription: row, plan: planBefore } });
    const plan = await this.teams.planOf(user.accountId);
    const scheduled = applied && hasPendingDowngrade(applied);
    const effectiveAt = scheduled ? applied.keptPlanUntil! : Math.floor(Date.now() / 1000);
    this.logger.log({ accountId: user.accountId, from: paidFor, to: target, scheduled }, 'Plan change applied');
    return {
      checkout_url: scheduled ? `${this.config.publicUrl}/profile` : `${this.config.publicUrl}/success`,
      change: scheduled ? 'downgrade_scheduled' : 'upgraded',
      plan,
      scheduled_plan: scheduled ? request.plan : null,
      effective_at: effectiveAt,
      formatted_effective_date: formatBillingDate(effectiveAt),
    };
  }

  /** Cancels at the end of the paid period (default), or at once with `at_period_end: false`. */
  async cancel(actor: Actor, user: AuthenticatedUser, request: CancelRequest): Promise<CancelResponse> {
    const [row, planBefore] = await Promise.all([this.repo.currentSubscription(user.accountId), this.planNow(user.accountId)]);
    if (!row) throw ApiError.badRequest(BILLING_MESSAGES.noActiveSubscription);
    if (!isEntitling(row)) throw ApiError.badRequest(BILLING_MESSAGES.subscriptionNotActive);
    const atPeriodEnd = request?.at_period_end ?? true;
    const updated = await this.stripe.call((s) =>
      atPeriodEnd ? s.subscriptions.update(row.subscriptionId, { cancel_at_period_end: true }) : s.subscriptions.cancel(row.subscriptionId),
    );
    const applied = (await this.applySubscription(updated, { kind: 'member', actor, action: 'subscription.cancelled', before: { subscription: row, plan: planBefore } })) ?? subscriptionRowOf(updated, user.accountId);
    this.logger.log({ accountId: user.accountId, subscriptionId: row.subscriptionId, atPeriodEnd }, 'Subscription cancelled');
    const plan = await this.teams.planOf(user.accountId);
    return {
      cancel_at_period_end: isEntitling(applied) && applied.cancelAtPeriodEnd,
      current_period_end: isEntitling(applied) ? applied.currentPeriodEnd : null,
      subscription_status: subscriptionStatusOf(applied, plan),
    };
  }

  /**
   * Applies a subscription object as the provider answered it (the source of
   * truth, never an event's ordering): stores it and sets the account's plan
   * from its current subscription, with the audit entry of the change, in one
   * transaction that holds the account's row. `by` says whose change it is:
   * a member's request writes its entry (what changed since the request read
   * the subscription, even when Stripe's webhook for the same change stored
   * it first), Stripe only when something it applies differs from what was
   * stored. In the same transaction a smaller plan pauses the jobs above
   * its limit, and a bigger one lets the jobs held by the quota run again;
   * the entry names them (`paused_job_ids`, `resumed_job_ids`). Null when
   * the customer is not one of ours or the account is gone.
   */
  async applySubscription(subscription: Stripe.Subscription, by: AppliedBy): Promise<SubscriptionRow | null> {
    const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    const accountId = await this.repo.userIdOfCustomer(customerId);
    if (!accountId) {
      this.logger.warn({ customerId, subscriptionId: subscription.id }, 'Stripe subscription of an unknown customer ignored');
      return null;
    }
    const row = subscriptionRowOf(subscription, accountId);
    const applied = await this.db.transaction(async (tx) => {
      // The account can be deleted between the lookup and the lock (its deletion cancels the subscription, whose events arrive meanwhile).
      const was = await this.teams.planForUpdate(accountId, tx);
      if (!was) return null;
      const before = await this.repo.subscriptionWithin(accountId, row.subscriptionId, tx);
      await this.repo.saveSubscription(row, tx);
      const plan = entitledPlan(await this.repo.currentSubscription(accountId, tx));
      if (plan !== was) await this.teams.setPlanWithin(accountId, plan, tx);
      // A smaller plan pauses the newest jobs above its limit, and a bigger one resumes those the quota held, in this transaction: its entry names them.
      const paused = PLAN_RANK[plan] < PLAN_RANK[was] ? await this.jobs.pauseJobsBeyondLimit(tx, accountId, PLAN_LIMITS[plan].maxJobs) : [];
      const resumed: ResumedJob[] = PLAN_RANK[plan] > PLAN_RANK[was] ? await this.jobs.resumeQuotaHeldWithin(tx, accountId) : [];
      const jobChanges: AuditEntry['changes'] = {
        ...(paused.length > 0 ? { paused_job_ids: { before: null, after: paused } } : {}),
        ...(resumed.length > 0 ? { resumed_job_ids: { before: null, after: resumed.map((job) => job.id) } } : {}),
      };
      if (by.kind === 'member') {
        // Against what the request read: Stripe's webhook for this very change may have stored it between that read and this transaction.
        const changes = { ...subscriptionChanges(by.before.subscription, row, by.before.plan, plan), ...jobChanges };
        await this.audit.record(tx, by.actor, { action: by.action, targetType: 'subscription', targetId: row.subscriptionId, changes });
        return { was, plan, paused, resumed };
      }
      const changes = { ...subscriptionChanges(before, row, was, plan), ...jobChanges };
      if (Object.keys(changes).length > 0) {
        const stripe: Actor = { accountId, userId: null, keyId: null, ip: null, requestId: by.requestId };
        await this.audit.record(tx, stripe, { action: 'subscription.changed_by_stripe', targetType: 'subscription', targetId: row.subscriptionId, changes });
      }
      return { was, plan, paused, resumed };
    });
    if (!applied) {
      this.logger.warn({ customerId, subscriptionId: subscription.id }, 'Stripe subscription of a deleted account ignored');
      return null;
    }
    if (applied.plan !== applied.was) {
      this.teams.forgetPlan(accountId);
      this.logger.log({ accountId, from: applied.was, to: applied.plan }, 'Plan changed by billing');
      await this.settleJobs(accountId, applied.plan, applied.paused, applied.resumed);
    }
    return row;
  }

  /** The account's plan read now (not the cached one a request may reuse for PLAN_CACHE_TTL_MS). */
  private async planNow(accountId: string): Promise<PlanId> {
    const plan = (await this.teams.plansOf([accountId])).get(accountId);
    if (!plan) throw ApiError.notFound();
    return plan;
  }

  /**
   * Starts a new usage period once per paid period of the subscription (its
   * invoice paid, Stripe's webhook delivery `requestId`): the execution
   * count afresh and the jobs the quota held back on their schedule, in one
   * transaction holding the account's row, with Stripe's entry
   * (`subscription.period_started`: the count replaced, `resumed_job_ids`)
   * when either changed something.
   */
  async startPaidPeriod(row: SubscriptionRow, requestId: string | null): Promise<void> {
    const periodStart = row.currentPeriodStart;
    if (!isEntitling(row) || row.stripeStatus === 'past_due' || periodStart === null) return;
    const started = await this.db.transaction(async (tx) => {
      if (!(await this.teams.planForUpdate(row.accountId, tx))) return null;
      if (!(await this.repo.markUsagePeriodStarted(row.subscriptionId, periodStart, tx))) return null;
      // Jobs before the usage row, the order a claim locks them in.
      const resumed = await this.jobs.resumeQuotaHeldWithin(tx, row.accountId);
      const used = await this.quota.resetExecutions(tx, row.accountId);
      const changes: AuditEntry['changes'] = {
        ...(used > 0 ? { executions_used: { before: used, after: 0 } } : {}),
        ...(resumed.length > 0 ? { resumed_job_ids: { before: null, after: resumed.map((job) => job.id) } } : {}),
      };
      if (Object.keys(changes).length > 0) {
        const stripe: Actor = { accountId: row.accountId, userId: null, keyId: null, ip: null, requestId };
        await this.audit.record(tx, stripe, { action: 'subscription.period_started', targetType: 'subscription', targetId: row.subscriptionId, changes });
      }
      return resumed;
    });
    if (!started) return;
    this.jobs.announceResumed(row.accountId, started);
    this.logger.log({ accountId: row.accountId, subscriptionId: row.subscriptionId, periodStart, resumed: started.length }, 'New paid usage period started');
  }

  /**
   * After a plan change has committed: the event streams hear of the jobs a
   * bigger plan resumed, and the event streams and the owner of the jobs a
   * smaller one paused.
   */
  private async settleJobs(accountId: string, plan: PlanId, pausedIds: string[], resumed: ResumedJob[]): Promise<void> {
    this.jobs.announceResumed(accountId, resumed);
    if (pausedIds.length === 0) return;
    this.jobs.announcePaused(accountId, pausedIds);
    this.logger.log({ accountId, plan, paused: pausedIds.length }, 'Jobs above the new plan limit paused');
    const owner = await this.teams.ownerOf(accountId);
    if (!owner) return;
    const paused = new Set(pausedIds);
    const names = (await this.jobs.list(accountId, 'primary')).filter((job) => paused.has(job.job_id)).map((job) => job.name).reverse();
    await this.mail.send(jobsPausedMail(owner.email, planName(plan), PLAN_LIMITS[plan].maxJobs, names, this.config.publicUrl));
  }

  /** Ends the account's paid subscription at once because their account is being deleted: nobody is billed for an account that no longer exists. */
  async endForDeletedAccount(accountId: string): Promise<void> {
    const row = await this.repo.currentSubscription(accountId);
    if (!isEntitling(row)) return;
    if (!this.stripe.enabled) {
      this.logger.error({ accountId, subscriptionId: row.subscriptionId }, 'Account deleted with a paid subscription while billing is off; cancel it in Stripe');
      return;
    }
    try {
      await this.stripe.call((s) => s.subscriptions.cancel(row.subscriptionId));
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')) throw error;
    }
    this.logger.log({ accountId, subscriptionId: row.subscriptionId }, 'Subscription cancelled with the account');
  }

  /** One Stripe customer per account, created on its first checkout (named after its owner). */
  private async customerFor(user: AuthenticatedUser): Promise<string> {
    const existing = await this.repo.customerIdOf(user.accountId);
    if (existing) return existing;
    const account = await this.teams.ownerOf(user.accountId);
    if (!account) throw ApiError.notFound();
    const customer = await this.stripe.call((s) =>
      s.customers.create({ email: account.email, name: account.name, metadata: { account_id: user.accountId, user_id: user.id } }, { idempotencyKey: `cronbeam-customer-${user.accountId}` }),
    );
    return this.repo.linkCustomer(user.accountId, customer.id);
  }
}

export function planName(plan: PlanId): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}
