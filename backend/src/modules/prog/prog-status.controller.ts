import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  badgeSchema,
  incidentNoteSchema,
  STATUS_PAGE_MESSAGES,
  statusPageSchema,
  type BadgeDefinition,
  type IncidentNoteDefinition,
  type StatusBadge,
  type StatusIncident,
  type StatusPage,
  type StatusPageDefinition,
} from '@cronbeam/shared/notifications/status-pages';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { ApiKeyGuard } from '../api-keys/api-key.guard';
import { AuditActor, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { StatusPagesService } from '../status-pages/status-pages.service';
import { JsonResponse, ProgOperation } from './prog-docs.decorators';
import {
  BadgeIdParam,
  PageIdParam,
  STATUS_PAGE_DEFINITION_EXAMPLE,
  StatusBody,
  STATUS_BADGE_EXAMPLE,
  STATUS_INCIDENT_EXAMPLE,
  STATUS_PAGE_EXAMPLE,
  statusBadgeRef,
  statusIncidentRef,
  statusPageRef,
} from './prog-status-docs';

const message = (text: string) => ({ message: text });
const MESSAGE_SCHEMA = { type: 'object', properties: { message: { type: 'string' } } };
const LimitReached = (detail: string) => JsonResponse(403, 'The account has as many as it may', { $ref: '#/components/schemas/MessageError' }, { detail });

/**
 * Public status pages on the public API, by API key: the same pages, rules
 * and service as the dashboard's /api/status-pages. The pages themselves
 * (/status/{slug}, its feed and the custom domain) need no key.
 */
@ApiTags('status pages')
@Controller('prog/status-pages')
@UseGuards(ApiKeyGuard)
export class ProgStatusPagesController {
  constructor(private readonly pages: StatusPagesService) {}

  @Get()
  @ProgOperation('List your status pages', 'Oldest first.')
  @JsonResponse(200, 'All status pages of the key owner', { type: 'array', items: statusPageRef() }, [STATUS_PAGE_EXAMPLE])
  list(@CurrentUser() user: AuthenticatedUser): Promise<StatusPage[]> {
    return this.pages.list(user.accountId);
  }

  @Post()
  @HttpCode(200)
  @ProgOperation(
    'Publish a status page',
    'Shows the chosen jobs and monitors (yours only) with their current state, 90 days of daily uptime and the incidents, at /status/{slug} and, ' +
      'with custom_domain, at that host (point a CNAME at this service). Never their URLs, headers, bodies or ids.',
  )
  @StatusBody(statusPageSchema, 'A job and a monitor, on a custom domain', STATUS_PAGE_DEFINITION_EXAMPLE)
  @JsonResponse(200, 'The published page', statusPageRef(), STATUS_PAGE_EXAMPLE)
  @LimitReached(STATUS_PAGE_MESSAGES.pageLimit)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(statusPageSchema)) body: StatusPageDefinition): Promise<StatusPage> {
    return this.pages.create(actor, user.accountId, body);
  }

  @Get(':page_id')
  @ProgOperation('Get a status page')
  @PageIdParam()
  @JsonResponse(200, 'The page', statusPageRef(), STATUS_PAGE_EXAMPLE)
  get(@CurrentUser() user: AuthenticatedUser, @Param('page_id') pageId: string): Promise<StatusPage> {
    return this.pages.get(user.accountId, pageId);
  }

  @Put(':page_id')
  @ProgOperation('Replace a status page definition', 'Send the full definition; items not sent leave the page.')
  @PageIdParam()
  @StatusBody(statusPageSchema, 'The full definition', STATUS_PAGE_DEFINITION_EXAMPLE)
  @JsonResponse(200, 'The updated page', statusPageRef(), STATUS_PAGE_EXAMPLE)
  update(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('page_id') pageId: string, @Body(new ZodPipe(statusPageSchema)) body: StatusPageDefinition): Promise<StatusPage> {
    return this.pages.update(actor, user.accountId, pageId, body);
  }

  @Delete(':page_id')
  @ProgOperation('Delete a status page', 'Its URL, feed, custom domain and badges answer 404 from then on.')
  @PageIdParam()
  @JsonResponse(200, 'Deleted', MESSAGE_SCHEMA, message('Status page deleted'))
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('page_id') pageId: string): Promise<{ message: string }> {
    await this.pages.remove(actor, user.accountId, pageId);
    return { message: 'Status page deleted' };
  }

  @Get(':page_id/incidents')
  @Header('Cache-Control', 'no-store')
  @ProgOperation('List the incidents of a status page', "Failure episodes of the page's jobs and monitors over 90 days, newest first, with your notes.")
  @PageIdParam()
  @JsonResponse(200, 'The incidents', { type: 'object', properties: { incidents: { type: 'array', items: statusIncidentRef() } }, required: ['incidents'] }, { incidents: [STATUS_INCIDENT_EXAMPLE] })
  async incidents(@CurrentUser() user: AuthenticatedUser, @Param('page_id') pageId: string): Promise<{ incidents: StatusIncident[] }> {
    return { incidents: await this.pages.incidents(user.accountId, pageId, 'replica') };
  }

  @Put(':page_id/incidents/note')
  @ProgOperation('Write the public note on an incident', 'Names the incident by its job_id or monitor_id and started_at; an empty note removes it.')
  @PageIdParam()
  @StatusBody(incidentNoteSchema, 'A note on a job incident', { job_id: STATUS_INCIDENT_EXAMPLE.job_id, started_at: STATUS_INCIDENT_EXAMPLE.started_at, note: STATUS_INCIDENT_EXAMPLE.note })
  @JsonResponse(200, 'The incident with its note', statusIncidentRef(), STATUS_INCIDENT_EXAMPLE)
  note(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('page_id') pageId: string, @Body(new ZodPipe(incidentNoteSchema)) body: IncidentNoteDefinition): Promise<StatusIncident> {
    return this.pages.setNote(actor, user.accountId, pageId, body);
  }
}

/** Badges on the public API, by API key. The badge URLs themselves need no key: the token in them is the credential. */
@ApiTags('status pages')
@Controller('prog/status-badges')
@UseGuards(ApiKeyGuard)
export class ProgStatusBadgesController {
  constructor(private readonly pages: StatusPagesService) {}

  @Get()
  @ProgOperation('List your badges')
  @JsonResponse(200, 'All badges of the key owner', { type: 'array', items: statusBadgeRef() }, [STATUS_BADGE_EXAMPLE])
  list(@CurrentUser() user: AuthenticatedUser): Promise<StatusBadge[]> {
    return this.pages.badges(user.accountId);
  }

  @Post()
  @HttpCode(200)
  @ProgOperation('Create a badge', 'An SVG of the state and 90-day uptime of one of your jobs, monitors or status pages (exactly one of job_id, monitor_id, page_id), at an unguessable URL.')
  @StatusBody(badgeSchema, "A job's badge", { job_id: STATUS_BADGE_EXAMPLE.job_id })
  @JsonResponse(200, 'The badge', statusBadgeRef(), STATUS_BADGE_EXAMPLE)
  @LimitReached(STATUS_PAGE_MESSAGES.badgeLimit)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(badgeSchema)) body: BadgeDefinition): Promise<StatusBadge> {
    return this.pages.createBadge(actor, user.accountId, body);
  }

  @Post(':badge_id/rotate')
  @HttpCode(200)
  @ProgOperation('Give a badge a new URL', 'The old URL answers 404 from then on.')
  @BadgeIdParam()
  @JsonResponse(200, 'The badge with its new URL', statusBadgeRef(), STATUS_BADGE_EXAMPLE)
  rotate(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('badge_id') badgeId: string): Promise<StatusBadge> {
    return this.pages.rotateBadge(actor, user.accountId, badgeId);
  }

  @Delete(':badge_id')
  @ProgOperation('Revoke a badge', 'Its URL answers 404 from then on.')
  @BadgeIdParam()
  @JsonResponse(200, 'Revoked', MESSAGE_SCHEMA, message('Badge revoked'))
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('badge_id') badgeId: string): Promise<{ message: string }> {
    await this.pages.removeBadge(actor, user.accountId, badgeId);
    return { message: 'Badge revoked' };
  }
}
