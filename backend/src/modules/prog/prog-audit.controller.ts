import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { auditQuerySchema, type AuditPage, type AuditQuery } from '@cronbeam/shared/audit/audit';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { ApiKeyGuard } from '../api-keys/api-key.guard';
import { AuditService } from '../audit/audit.service';
import { MinimumRole } from '../auth/account-role.guard';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { AUDIT_PAGE_EXAMPLE, auditPageRef } from './prog-audit-docs';
import { JsonResponse, ProgOperation } from './prog-docs.decorators';

/** The audit log on the public API, by API key: the same entries and filters as the dashboard's /api/audit. */
@ApiTags('audit log')
@Controller('prog/audit')
@UseGuards(ApiKeyGuard)
@MinimumRole('admin')
export class ProgAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ProgOperation(
    'Read the audit log',
    'Every change to the account (jobs and the other resources, keys, members, plan, security settings): who made it (user or API key), when, from which address, ' +
      'the action and its target, and the changed fields before and after, secrets shown as "***". Newest first; pass next_cursor as cursor for the next page. ' +
      "Filters: actor (a user's or key's id), target (an id), action (job.updated, or job for every job action), since and until (ISO 8601). For the account's owner and admins.",
  )
  @JsonResponse(200, 'A page of entries', auditPageRef(), AUDIT_PAGE_EXAMPLE)
  list(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(auditQuerySchema, 'query')) query: AuditQuery): Promise<AuditPage> {
    return this.audit.page(user.accountId, query);
  }
}
