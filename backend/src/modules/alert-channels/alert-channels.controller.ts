import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { alertChannelSchema, type AlertChannel, type AlertChannelDefinition, type AlertDelivery } from '@shared/notifications/alert-channels';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { AlertChannelsService } from './alert-channels.service';

/** The dashboard's alert channels: create, list, delete, test, and each one's delivery log. */
@Controller('api/alert-channels')
@UseGuards(BearerAuthGuard)
export class AlertChannelsController {
  constructor(private readonly channels: AlertChannelsService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<AlertChannel[]> {
    return this.channels.list(user.id);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(alertChannelSchema)) body: AlertChannelDefinition): Promise<AlertChannel> {
    return this.channels.create(user.id, body);
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ message: string }> {
    await this.channels.remove(user.id, id);
    return { message: 'Alert channel deleted' };
  }

  @Post(':id/test')
  @HttpCode(200)
  test(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<AlertDelivery> {
    return this.channels.sendTest(user.id, id);
  }

  @Get(':id/deliveries')
  async deliveries(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ deliveries: AlertDelivery[] }> {
    return { deliveries: await this.channels.deliveries(user.id, id) };
  }
}
