import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { JsonResponse } from './prog-docs.decorators';

/** The public API's only unauthenticated route: clients call it before retrying after a cold start. */
@ApiTags('health')
@Controller('prog')
export class ProgPingController {
  @Get('ping')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Check the API is up (no key needed)' })
  @JsonResponse(200, 'The service answers', { type: 'object', properties: { message: { type: 'string' } } }, { message: 'pong' })
  ping() {
    return { message: 'pong' };
  }
}
