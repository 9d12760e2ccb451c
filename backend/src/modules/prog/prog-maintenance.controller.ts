import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { MAINTENANCE_MESSAGES, maintenanceWindowSchema, type MaintenanceWindow, type MaintenanceWindowDefinition } from '@cronbeam/shared/notifications/maintenance-windows';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { ApiKeyGuard } from '../api-keys/api-key.guard';
import { AuditActor, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { MaintenanceWindowsService } from '../maintenance/maintenance-windows.service';
import { requestSchema } from './openapi-zod';
import { JsonResponse, ProgOperation } from './prog-docs.decorators';
import { MAINTENANCE_WINDOW_DEFINITION_EXAMPLE, MAINTENANCE_WINDOW_EXAMPLE, maintenanceWindowRef, ONE_OFF_WINDOW_DEFINITION_EXAMPLE, WindowIdParam } from './prog-maintenance-docs';

const MESSAGE_SCHEMA = { type: 'object', properties: { message: { type: 'string' } } };

const WindowBody = () =>
  ApiBody({
    schema: requestSchema(maintenanceWindowSchema),
    examples: {
      recurring: { summary: 'Every Sunday 02:00-03:30 Berlin time, for the jobs tagged billing', value: MAINTENANCE_WINDOW_DEFINITION_EXAMPLE },
      oneOff: { summary: 'One night for one job, its runs paused', value: ONE_OFF_WINDOW_DEFINITION_EXAMPLE },
    },
  });

/**
 * Maintenance windows on the public API, by API key: the same windows, rules
 * and service as the dashboard's /api/maintenance-windows.
 */
@ApiTags('maintenance windows')
@Controller('prog/maintenance-windows')
@UseGuards(ApiKeyGuard)
export class ProgMaintenanceController {
  constructor(private readonly windows: MaintenanceWindowsService) {}

  @Get()
  @ProgOperation('List your maintenance windows', 'Oldest first, ended ones included.')
  @JsonResponse(200, 'All maintenance windows of the key owner', { type: 'array', items: maintenanceWindowRef() }, [MAINTENANCE_WINDOW_EXAMPLE])
  list(@CurrentUser() user: AuthenticatedUser): Promise<MaintenanceWindow[]> {
    return this.windows.list(user.accountId);
  }

  @Post()
  @HttpCode(200)
  @ProgOperation(
    'Create a maintenance window',
    'Inside the window the failures of the jobs it covers (one job, a tag, or all: neither job_id nor tag) alert no one and do not count toward alert_after_failures; ' +
      'their log lines say which window muted them. Recoveries still alert. With pause_runs, scheduled runs due inside it are recorded as skipped instead of sent. ' +
      'One-off: starts_at and ends_at. Recurring: cron_expression and duration_minutes, in time_zone.',
  )
  @WindowBody()
  @JsonResponse(200, 'The window', maintenanceWindowRef(), MAINTENANCE_WINDOW_EXAMPLE)
  @JsonResponse(403, 'The account has as many as it may', { $ref: '#/components/schemas/MessageError' }, { detail: MAINTENANCE_MESSAGES.limit })
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(maintenanceWindowSchema)) body: MaintenanceWindowDefinition): Promise<MaintenanceWindow> {
    return this.windows.create(actor, user.accountId, body);
  }

  @Get(':window_id')
  @ProgOperation('Get a maintenance window')
  @WindowIdParam()
  @JsonResponse(200, 'The window', maintenanceWindowRef(), MAINTENANCE_WINDOW_EXAMPLE)
  get(@CurrentUser() user: AuthenticatedUser, @Param('window_id') windowId: string): Promise<MaintenanceWindow> {
    return this.windows.get(user.accountId, windowId);
  }

  @Put(':window_id')
  @ProgOperation('Replace a maintenance window definition', 'Send the full definition.')
  @WindowIdParam()
  @WindowBody()
  @JsonResponse(200, 'The updated window', maintenanceWindowRef(), MAINTENANCE_WINDOW_EXAMPLE)
  update(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('window_id') windowId: string, @Body(new ZodPipe(maintenanceWindowSchema)) body: MaintenanceWindowDefinition): Promise<MaintenanceWindow> {
    return this.windows.update(actor, user.accountId, windowId, body);
  }

  @Delete(':window_id')
  @ProgOperation('Delete a maintenance window')
  @WindowIdParam()
  @JsonResponse(200, 'Deleted', MESSAGE_SCHEMA, { message: 'Maintenance window deleted' })
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('window_id') windowId: string): Promise<{ message: string }> {
    await this.windows.remove(actor, user.accountId, windowId);
    return { message: 'Maintenance window deleted' };
  }
}
