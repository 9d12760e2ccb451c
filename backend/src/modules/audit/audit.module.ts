import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AuditController } from './audit.controller';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditService } from './audit.service';

/** The audit log. Owns `audit_events`; the modules that change an account's resources write their entries through it. */
@Module({
  imports: [AuthModule],
  controllers: [AuditController],
  providers: [AuditEventsRepository, AuditService],
  exports: [AuditService],
})
export class AuditModule {}
