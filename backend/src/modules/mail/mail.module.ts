import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../../config/app-config';
import { DevOutboxController } from './dev-outbox.controller';
import { MailOutboxRepository } from './mail-outbox.repository';
import { MailService } from './mail.service';
import { OutboxMessageEntity } from './outbox-message.entity';

/** Outgoing mail. The dev outbox endpoint exists only when the server does not run in production. */
@Module({})
export class MailModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MailModule,
      global: true,
      imports: [TypeOrmModule.forFeature([OutboxMessageEntity])],
      controllers: config.isProduction ? [] : [DevOutboxController],
      providers: [MailOutboxRepository, MailService],
      exports: [MailService],
    };
  }
}
