import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { maintenanceWindowSchema, type MaintenanceWindow, type MaintenanceWindowDefinition } from '@cronbeam/shared/notifications/maintenance-windows';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditActor, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { MaintenanceWindowsService } from './maintenance-windows.service';

/** The dashboard's maintenance windows: create, list, replace, delete. */
@Controller('api/maintenance-windows')
@UseGuards(BearerAuthGuard)
export class MaintenanceWindowsController {
  constructor(private readonly windows: MaintenanceWindowsService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<MaintenanceWindow[]> {
    return this.windows.list(user.accountId);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(maintenanceWindowSchema)) body: MaintenanceWindowDefinition): Promise<MaintenanceWindow> {
    return this.windows.create(actor, user.accountId, body);
  }

  @Get(':id')
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<MaintenanceWindow> {
    return this.windows.get(user.accountId, id);
  }

  @Put(':id')
  update(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string, @Body(new ZodPipe(maintenanceWindowSchema)) body: MaintenanceWindowDefinition): Promise<MaintenanceWindow> {
    return this.windows.update(actor, user.accountId, id, body);
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    await this.windows.remove(actor, user.accountId, id);
    return { message: 'Maintenance window deleted' };
  }
}
