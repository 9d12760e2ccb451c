import { All, Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { monitorSchema, type Monitor, type MonitorDefinition, type MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import { bulkTagActionSchema, tagFilterQuerySchema, type BulkTagActionRequest, type MonitorBulkTagResult, type TagFilterQuery } from '@cronbeam/shared/tags/tags';
import { ApiError } from '../../common/http/api-error';
import { MemoryRateLimiter } from '../../common/rate-limit/memory-rate-limiter';
import type { RateLimitBucket } from '../../common/rate-limit/rate-limit';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditActor, NotAudited, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { KnownPingTokens, PING_WINDOW_SECONDS, PINGS_PER_WINDOW } from './known-ping-tokens';
import { MonitorsService } from './monitors.service';

/** The dashboard's heartbeat monitors: create, list, replace, pause and resume, delete, and each one's recent events. */
@Controller('api/monitors')
@UseGuards(BearerAuthGuard)
export class MonitorsController {
  constructor(private readonly monitors: MonitorsService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(tagFilterQuerySchema, 'query')) query: TagFilterQuery): Promise<Monitor[]> {
    return this.monitors.list(user.accountId, query.tag ?? null);
  }

  /** Pauses, resumes or deletes every monitor carrying a tag; answers exactly those monitors. */
  @Post('bulk-action')
  @HttpCode(200)
  bulkAction(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(bulkTagActionSchema)) body: BulkTagActionRequest): Promise<MonitorBulkTagResult<Monitor>> {
    return this.monitors.bulkAction(actor, user.accountId, body);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(monitorSchema)) body: MonitorDefinition): Promise<Monitor> {
    return this.monitors.create(actor, user.accountId, body);
  }

  @Put(':id')
  update(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string, @Body(new ZodPipe(monitorSchema)) body: MonitorDefinition): Promise<Monitor> {
    return this.monitors.update(actor, user.accountId, id, body);
  }

  @Post(':id/pause')
  @HttpCode(200)
  pause(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<Monitor> {
    return this.monitors.setPaused(actor, user.accountId, id, true);
  }

  @Post(':id/resume')
  @HttpCode(200)
  resume(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<Monitor> {
    return this.monitors.setPaused(actor, user.accountId, id, false);
  }

  @Get(':id/events')
  @Header('Cache-Control', 'no-store')
  async events(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ events: MonitorEvent[] }> {
    return { events: await this.monitors.events(user.accountId, id) };
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    await this.monitors.remove(actor, user.accountId, id);
    return { message: 'Monitor deleted' };
  }
}

/**
 * The unauthenticated ping URLs (GET or POST): cheap, rate-limited per token
 * and, for tokens not seen working lately, per address. The counts are per
 * instance (in memory): they shed floods, and a ping writes to the database anyway.
 */
@Controller('ping')
export class PingController {
  constructor(
    private readonly monitors: MonitorsService,
    private readonly limiter: MemoryRateLimiter,
    private readonly knownTokens: KnownPingTokens,
  ) {}

  @All(':token')
  @HttpCode(200)
  @NotAudited("a check-in is the monitor's own data (its events), not a setting anyone changed")
  @Header('Cache-Control', 'no-store')
  success(@Req() req: FastifyRequest, @Param('token') token: string) {
    return this.handle(req, token, 'success');
  }

  @All(':token/:kind')
  @HttpCode(200)
  @NotAudited("a check-in is the monitor's own data (its events), not a setting anyone changed")
  @Header('Cache-Control', 'no-store')
  other(@Req() req: FastifyRequest, @Param('token') token: string, @Param('kind') kind: string) {
    if (kind !== 'fail' && kind !== 'start') throw ApiError.notFound('Not found');
    return this.handle(req, token, kind);
  }

  /** GET and POST (HEAD too, as GET) are pings; other methods are not. */
  private async handle(req: FastifyRequest, token: string, kind: 'success' | 'fail' | 'start'): Promise<{ message: string }> {
    if (!['GET', 'POST', 'HEAD'].includes(req.method)) throw new ApiError(405, 'Ping with GET or POST');
    // Guessing tokens costs a lookup each: a token not seen working lately takes one of its address's guesses
    // before its lookup (given back when the token is real), so a burst of guesses cannot all be looked up.
    const mayGuess = !this.knownTokens.has(token);
    const guess = mayGuess ? await this.limiter.take([pingBucket(`ping-guess:ip:${req.ip}`, 'Too many pings for unknown monitors; slow down')]) : [];
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) throw ApiError.notFound('Unknown ping URL');
    try {
      await this.limiter.take([pingBucket(`ping:token:${token}`, 'Too many pings for this monitor; slow down')]);
      await this.monitors.ping(token, kind);
    } catch (error) {
      // An unknown token was a guess: its count stays.
      if (!(error instanceof ApiError && error.getStatus() === 404)) await this.limiter.giveBack(guess);
      throw error;
    }
    await this.limiter.giveBack(guess);
    this.knownTokens.remember(token);
    return { message: 'OK' };
  }
}

function pingBucket(key: string, message: string): RateLimitBucket {
  return { key, limit: PINGS_PER_WINDOW, windowSeconds: PING_WINDOW_SECONDS, message };
}
