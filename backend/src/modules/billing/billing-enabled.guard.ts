import { type CanActivate, HttpStatus, Injectable } from '@nestjs/common';
import { BILLING_MESSAGES } from '@cronbeam/shared/billing/billing-types';
import { ApiError } from '../../common/http/api-error';
import { StripeGateway } from './stripe-gateway';

/** Without STRIPE_SECRET_KEY every billing route answers 503, before authentication and validation. */
@Injectable()
export class BillingEnabledGuard implements CanActivate {
  constructor(private readonly stripe: StripeGateway) {}

  canActivate(): boolean {
    if (!this.stripe.enabled) throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, BILLING_MESSAGES.notConfigured);
    return true;
  }
}
