import { Module } from '@nestjs/common';
import { ContactController } from './contact.controller';
import { ContactService } from './contact.service';

/** Server side of the public site: the contact form. Its pages and host guards are served by backend/src/web. */
@Module({
  controllers: [ContactController],
  providers: [ContactService],
})
export class SiteModule {}
