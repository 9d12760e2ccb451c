import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { IDENTITY_PROVIDER, type IdentityProvider } from './identity-provider';
import { SigningKeysService } from './local/signing-keys.service';

/** The public keys that verify the local provider's tokens (Cognito publishes its own). */
@Controller('.well-known')
export class JwksController {
  constructor(
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider,
    private readonly keys: SigningKeysService,
  ) {}

  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  async jwks() {
    if (this.provider.name !== 'local') throw ApiError.notFound();
    return { keys: await this.keys.publicJwks() };
  }
}
