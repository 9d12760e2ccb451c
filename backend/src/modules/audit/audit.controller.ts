import { Readable } from 'node:stream';
import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AUDIT_LIMITS, auditQuerySchema, type AuditPage, type AuditQuery } from '@cronbeam/shared/audit/audit';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { MinimumRole } from '../auth/account-role.guard';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { csvHeader, csvLine } from './audit-csv';
import { AuditService } from './audit.service';

/** The dashboard's audit log (bearer token). It names every member's changes and addresses: for the account's owner and admins. */
@Controller('api')
@UseGuards(BearerAuthGuard)
@MinimumRole('admin')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** The account's entries, newest first, filtered; `next_cursor` pages on. */
  @Get('audit')
  list(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(auditQuerySchema, 'query')) query: AuditQuery): Promise<AuditPage> {
    return this.audit.page(user.accountId, query);
  }

  /** Every entry matching the filters as CSV, streamed a batch at a time. */
  @Get('audit.csv')
  async csv(@CurrentUser() user: AuthenticatedUser, @Query(new ZodPipe(auditQuerySchema, 'query')) query: AuditQuery, @Res() res: FastifyReply): Promise<void> {
    const batches = this.audit.all(user.accountId, query, AUDIT_LIMITS.csvBatch);
    // The first batch is read before the headers go out, so a failing read is still an ordinary error answer.
    const first = await batches.next();
    async function* lines(): AsyncGenerator<string> {
      yield csvHeader();
      if (first.done) return;
      yield first.value.map(csvLine).join('');
      for await (const batch of batches) yield batch.map(csvLine).join('');
    }
    // A stream: the batches are read as the client takes them.
    res.code(200).header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="audit-log.csv"').send(Readable.from(lines()));
  }
}
