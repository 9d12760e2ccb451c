import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AuditController } from './audit.controller';
import { AuditModule } from './audit.module';

/** The dashboard's audit log routes: apart from AuditModule, since their guards need identity, which itself writes entries. */
@Module({
  imports: [AuthModule, AuditModule],
  controllers: [AuditController],
})
export class AuditRoutesModule {}
