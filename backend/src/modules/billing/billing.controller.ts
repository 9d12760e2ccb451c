import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  cancelRequestSchema,
  checkoutRequestSchema,
  planChangeRequestSchema,
  type CancelRequest,
  type CancelResponse,
  type CheckoutRequest,
  type CheckoutResponse,
  type PlanChangeRequest,
  type PlanChangeResponse,
  type ProfileStats,
} from '@cronbeam/shared/billing/billing-types';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { CurrentUser, type AuthenticatedUser } from '../auth';
import { type Actor, AuditActor, NotAudited } from '../audit';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { BillingEnabledGuard } from './billing-enabled.guard';
import { BillingService } from './billing.service';
import { MinimumRole } from '../auth/account-role.guard';

/** The web app's billing calls (bearer token), all about the caller's own subscription. */
@Controller('api/stripe')
@UseGuards(BillingEnabledGuard, BearerAuthGuard)
@MinimumRole('owner')
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Post('create-checkout-session')
  @HttpCode(200)
  @NotAudited('opens a Stripe checkout page (and links the account to its Stripe customer): the subscription it leads to is recorded when Stripe\'s webhook applies it')
  createCheckoutSession(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(checkoutRequestSchema)) body: CheckoutRequest,
  ): Promise<CheckoutResponse> {
    return this.billing.createCheckout(user, body);
  }

  @Post('confirm-plan-change')
  @HttpCode(200)
  confirmPlanChange(
    @CurrentUser() user: AuthenticatedUser,
    @AuditActor() actor: Actor,
    @Body(new ZodPipe(planChangeRequestSchema)) body: PlanChangeRequest,
  ): Promise<PlanChangeResponse> {
    return this.billing.confirmPlanChange(actor, user, body);
  }

  @Post('cancel-subscription')
  @HttpCode(200)
  cancelSubscription(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(cancelRequestSchema)) body: CancelRequest): Promise<CancelResponse> {
    return this.billing.cancel(actor, user, body);
  }
}

/** The profile's plan and subscription summary; works with billing off too (plans set by operators). */
@Controller('api/profile')
@UseGuards(BearerAuthGuard)
export class ProfileStatsController {
  constructor(private readonly billing: BillingService) {}

  @Get('stats')
  stats(@CurrentUser() user: AuthenticatedUser): Promise<ProfileStats> {
    return this.billing.profileStats(user.accountId);
  }
}
