import { Controller, Headers, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BILLING_MESSAGES } from '@cronbeam/shared/billing/billing-types';
import { ApiError } from '../../common/http/api-error';
import { NotAudited } from '../audit';
import { BillingEnabledGuard } from './billing-enabled.guard';
import { BillingWebhooksService } from './billing-webhooks.service';

/** The path bootstrap gives a raw-body parser, so the signature is checked over the exact bytes Stripe signed. */
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';

/** Stripe's event deliveries: no session, the signature is the authentication. */
@Controller('api/stripe')
@UseGuards(BillingEnabledGuard)
export class BillingWebhookController {
  constructor(private readonly webhooks: BillingWebhooksService) {}

  @Post('webhook')
  @HttpCode(200)
  @NotAudited('Stripe\'s delivery, not a member\'s change: what it applies is recorded as Stripe\'s (no actor) when it changes the stored subscription or plan, and a replayed or unused event writes nothing')
  receive(@Req() req: FastifyRequest, @Headers('stripe-signature') signature: string | undefined) {
    if (!Buffer.isBuffer(req.body)) throw ApiError.badRequest(BILLING_MESSAGES.invalidSignature);
    return this.webhooks.receive(req.body, signature, req.id);
  }
}
