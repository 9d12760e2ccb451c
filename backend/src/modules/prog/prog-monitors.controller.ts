import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { monitorSchema, type Monitor, type MonitorDefinition, type MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import { BULK_TAG_ACTIONS, bulkTagActionSchema, tagFilterQuerySchema, type BulkTagActionRequest, type MonitorBulkTagResult, type TagFilterQuery } from '@cronbeam/shared/tags/tags';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { ApiKeyGuard } from '../api-keys/api-key.guard';
import { AuditActor, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { MonitorsService } from '../monitors/monitors.service';
import { JobLimitResponse, JsonResponse, ProgOperation } from './prog-docs.decorators';
import { MONITOR_EVENTS, MONITOR_EXAMPLE, MonitorDefinitionBody, MonitorIdParam, monitorRef } from './prog-monitors-docs';

/**
 * Heartbeat monitors on the public API, by API key: the same monitors, rules
 * and service as the dashboard's /api/monitors. The ping URLs themselves need no key.
 */
@ApiTags('monitors')
@Controller('prog/monitors')
@UseGuards(ApiKeyGuard)
export class ProgMonitorsController {
  constructor(private readonly monitors: MonitorsService) {}

  @Get()
  @ProgOperation('List your monitors', 'Oldest first; with ?tag=, only the monitors carrying that tag.')
  @JsonResponse(200, 'The monitors of the key owner', { type: 'array', items: monitorRef() }, [MONITOR_EXAMPLE])
  list(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(tagFilterQuerySchema, 'query')) query: TagFilterQuery): Promise<Monitor[]> {
    return this.monitors.list(user.accountId, query.tag ?? null);
  }

  @Post('bulk-action')
  @HttpCode(200)
  @ProgOperation(
    'Pause, resume or delete every monitor with a tag',
    'Acts on the monitors of the key owner that carry the tag and answers exactly those: as they are after a pause or resume, as they were before a delete.',
  )
  @ApiBody({ schema: { type: 'object', required: ['action', 'tag'], properties: { action: { type: 'string', enum: [...BULK_TAG_ACTIONS] }, tag: { type: 'string' } } }, examples: { pause: { summary: 'Pause every backup monitor', value: { action: 'pause', tag: 'backups' } } } })
  @JsonResponse(
    200,
    'The monitors that carry the tag',
    { type: 'object', required: ['action', 'tag', 'count', 'monitors'], properties: { action: { type: 'string' }, tag: { type: 'string' }, count: { type: 'integer' }, monitors: { type: 'array', items: monitorRef() } } },
    { action: 'pause', tag: 'backups', count: 1, monitors: [{ ...MONITOR_EXAMPLE, status: 'paused', due_at: null }] },
  )
  bulkAction(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(bulkTagActionSchema)) body: BulkTagActionRequest): Promise<MonitorBulkTagResult<Monitor>> {
    return this.monitors.bulkAction(actor, user.accountId, body);
  }

  @Post()
  @HttpCode(200)
  @ProgOperation(
    'Create a monitor',
    'A ping URL your job calls when it runs: give period_seconds (a ping every N seconds) or cron_expression (a ping at each instant, in time_zone). ' +
      "It starts as new and goes down when a ping is later than grace_seconds after it was due. Monitors count toward the plan's job limit.",
  )
  @MonitorDefinitionBody()
  @JsonResponse(200, 'The created monitor', monitorRef(), { ...MONITOR_EXAMPLE, status: 'new', last_ping_at: null, last_duration_ms: null, due_at: null })
  @JobLimitResponse()
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(monitorSchema)) body: MonitorDefinition): Promise<Monitor> {
    return this.monitors.create(actor, user.accountId, body);
  }

  @Get(':monitor_id')
  @ProgOperation('Get a monitor')
  @MonitorIdParam()
  @JsonResponse(200, 'The monitor', monitorRef(), MONITOR_EXAMPLE)
  get(@CurrentUser() user: AuthenticatedUser, @Param('monitor_id') monitorId: string): Promise<Monitor> {
    return this.monitors.get(user.accountId, monitorId);
  }

  @Put(':monitor_id')
  @ProgOperation('Replace a monitor definition', 'Send the full definition; omitted optional fields return to their defaults. The ping URL stays.')
  @MonitorIdParam()
  @MonitorDefinitionBody()
  @JsonResponse(200, 'The updated monitor', monitorRef(), MONITOR_EXAMPLE)
  update(
    @CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor,
    @Param('monitor_id') monitorId: string,
    @Body(new ZodPipe(monitorSchema)) body: MonitorDefinition,
  ): Promise<Monitor> {
    return this.monitors.update(actor, user.accountId, monitorId, body);
  }

  @Delete(':monitor_id')
  @ProgOperation('Delete a monitor and its events', 'Permanent; its ping URL answers 404 from then on.')
  @MonitorIdParam()
  @JsonResponse(200, 'Deleted', { type: 'object', properties: { message: { type: 'string' } } }, { message: 'Monitor deleted' })
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('monitor_id') monitorId: string): Promise<{ message: string }> {
    await this.monitors.remove(actor, user.accountId, monitorId);
    return { message: 'Monitor deleted' };
  }

  @Post(':monitor_id/pause')
  @HttpCode(200)
  @ProgOperation('Pause a monitor', 'No alerts while paused; pings are still recorded.')
  @MonitorIdParam()
  @JsonResponse(200, 'The paused monitor', monitorRef(), { ...MONITOR_EXAMPLE, status: 'paused', due_at: null })
  pause(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('monitor_id') monitorId: string): Promise<Monitor> {
    return this.monitors.setPaused(actor, user.accountId, monitorId, true);
  }

  @Post(':monitor_id/resume')
  @HttpCode(200)
  @ProgOperation('Resume a monitor', 'It waits for the next ping as a new monitor does.')
  @MonitorIdParam()
  @JsonResponse(200, 'The resumed monitor', monitorRef(), { ...MONITOR_EXAMPLE, status: 'new', due_at: null })
  resume(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('monitor_id') monitorId: string): Promise<Monitor> {
    return this.monitors.setPaused(actor, user.accountId, monitorId, false);
  }

  @Get(':monitor_id/events')
  @Header('Cache-Control', 'no-store')
  @ProgOperation('Latest events of a monitor', 'Its latest pings and missed pings, newest first.')
  @MonitorIdParam()
  @JsonResponse(200, 'The events', MONITOR_EVENTS.schema, MONITOR_EVENTS.example)
  async events(@CurrentUser() user: AuthenticatedUser, @Param('monitor_id') monitorId: string): Promise<{ events: MonitorEvent[] }> {
    return { events: await this.monitors.events(user.accountId, monitorId) };
  }
}
