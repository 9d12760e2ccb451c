import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { apiKeyRequestSchema, type ApiKeySummary, type GeneratedApiKey } from '@cronbeam/shared/jobs/api-key-types';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditActor, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { RecentAuthenticationGuard } from '../auth/recent-authentication.guard';
import { ApiKeysService } from './api-keys.service';

/** Key management from the dashboard/profile (bearer token). */
@Controller('api/api-keys')
@UseGuards(BearerAuthGuard)
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  /** A key outlives the session that made it, so making one asks for a recent sign-in. */
  @Post('generate')
  @HttpCode(200)
  @UseGuards(RecentAuthenticationGuard)
  generate(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(apiKeyRequestSchema)) body: { name: string }): Promise<GeneratedApiKey> {
    return this.keys.generate(actor, user.accountId, user.id, body.name);
  }

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<ApiKeySummary[]> {
    return this.keys.list(user.accountId);
  }

  @Delete(':keyId')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('keyId') keyId: string): Promise<{ message: string }> {
    await this.keys.remove(actor, user, keyId);
    return { message: 'API key deleted' };
  }
}
