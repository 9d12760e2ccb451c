import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { alertChannelSchema, alertChannelVerificationSchema, type AlertChannel, type AlertChannelDefinition, type AlertDelivery } from '@cronbeam/shared/notifications/alert-channels';
import type { CallbackDelivery } from '@cronbeam/shared/jobs/run-callbacks';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditActor, NotAudited, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser, requestOrigin } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { AlertChannelsService } from './alert-channels.service';

/** The dashboard's alert channels: create, list, delete, test, resend an email channel's verification mail, and each one's delivery log. */
@Controller('api/alert-channels')
@UseGuards(BearerAuthGuard)
export class AlertChannelsController {
  constructor(private readonly channels: AlertChannelsService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<AlertChannel[]> {
    return this.channels.list(user.accountId);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(alertChannelSchema)) body: AlertChannelDefinition): Promise<AlertChannel> {
    return this.channels.create(actor, user.accountId, body);
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    await this.channels.remove(actor, user.accountId, id);
    return { message: 'Alert channel deleted' };
  }

  @Post(':id/test')
  @HttpCode(200)
  @NotAudited('a test alert changes no setting; its delivery shows in the channel log')
  test(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<AlertDelivery> {
    return this.channels.sendTest(user.accountId, id);
  }

  @Post(':id/resend-verification')
  @HttpCode(200)
  resendVerification(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<AlertChannel> {
    return this.channels.resendVerification(actor, user.accountId, id);
  }

  @Get(':id/deliveries')
  async deliveries(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ deliveries: AlertDelivery[] }> {
    return { deliveries: await this.channels.deliveries(user.accountId, id) };
  }
}

/** A job's run callback deliveries, in the dashboard (the callbacks share the alerts' delivery queue and log). */
@Controller('api/jobs')
@UseGuards(BearerAuthGuard)
export class JobCallbackDeliveriesController {
  constructor(private readonly channels: AlertChannelsService) {}

  @Get(':id/callback-deliveries')
  async deliveries(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ deliveries: CallbackDelivery[] }> {
    return { deliveries: await this.channels.callbackDeliveries(user.accountId, id) };
  }
}

/** Where a verification link lands (through the web app's page): no session, since the recipient need not have an account; the token is the proof. */
@Controller('api/alert-channel-verifications')
export class AlertChannelVerificationsController {
  constructor(private readonly channels: AlertChannelsService) {}

  @Post()
  @HttpCode(200)
  verify(@Body(new ZodPipe(alertChannelVerificationSchema)) body: { token: string }, @Req() req: FastifyRequest): Promise<{ message: string }> {
    return this.channels.verify(body.token, requestOrigin(req));
  }
}
