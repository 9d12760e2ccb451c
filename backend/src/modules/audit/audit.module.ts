import { Module } from '@nestjs/common';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditService } from './audit.service';

/**
 * The audit log. Owns `audit_events`; the modules that change an account's
 * resources write their entries through it. It depends on no other module,
 * so every module can import it, identity included (whose changes are
 * recorded too); its routes are AuditRoutesModule's.
 */
@Module({
  providers: [AuditEventsRepository, AuditService],
  exports: [AuditService],
})
export class AuditModule {}
