import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import {
  badgeSchema,
  incidentNoteSchema,
  statusPageSchema,
  type BadgeDefinition,
  type IncidentNoteDefinition,
  type StatusBadge,
  type StatusIncident,
  type StatusPage,
  type StatusPageDefinition,
} from '@cronbeam/shared/notifications/status-pages';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditActor, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { StatusPagesService } from './status-pages.service';

/** The dashboard's status pages: create, list, replace, delete, and each page's incidents with their notes. */
@Controller('api/status-pages')
@UseGuards(BearerAuthGuard)
export class StatusPagesController {
  constructor(private readonly pages: StatusPagesService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<StatusPage[]> {
    return this.pages.list(user.accountId);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(statusPageSchema)) body: StatusPageDefinition): Promise<StatusPage> {
    return this.pages.create(actor, user.accountId, body);
  }

  @Get(':id')
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<StatusPage> {
    return this.pages.get(user.accountId, id);
  }

  @Put(':id')
  update(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string, @Body(new ZodPipe(statusPageSchema)) body: StatusPageDefinition): Promise<StatusPage> {
    return this.pages.update(actor, user.accountId, id, body);
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    await this.pages.remove(actor, user.accountId, id);
    return { message: 'Status page deleted' };
  }

  @Get(':id/incidents')
  @Header('Cache-Control', 'no-store')
  async incidents(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<{ incidents: StatusIncident[] }> {
    return { incidents: await this.pages.incidents(user.accountId, id, 'replica') };
  }

  @Put(':id/incidents/note')
  note(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string, @Body(new ZodPipe(incidentNoteSchema)) body: IncidentNoteDefinition): Promise<StatusIncident> {
    return this.pages.setNote(actor, user.accountId, id, body);
  }
}

/** The dashboard's badges: list, create, rotate (a new URL) and revoke. */
@Controller('api/status-badges')
@UseGuards(BearerAuthGuard)
export class StatusBadgesController {
  constructor(private readonly pages: StatusPagesService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<StatusBadge[]> {
    return this.pages.badges(user.accountId);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(badgeSchema)) body: BadgeDefinition): Promise<StatusBadge> {
    return this.pages.createBadge(actor, user.accountId, body);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  rotate(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<StatusBadge> {
    return this.pages.rotateBadge(actor, user.accountId, id);
  }

  @Delete(':id')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('id') id: string): Promise<{ message: string }> {
    await this.pages.removeBadge(actor, user.accountId, id);
    return { message: 'Badge revoked' };
  }
}
