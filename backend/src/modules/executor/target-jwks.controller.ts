import { Controller, Get, Header } from '@nestjs/common';
import { RequestSigner, type PublicTargetJwk } from './request-signer.service';

/** The public keys that verify the identity tokens jobs' requests carry (the sign-in keys are at /.well-known/jwks.json). */
@Controller('.well-known')
export class TargetJwksController {
  constructor(private readonly signer: RequestSigner) {}

  @Get('target-jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  jwks(): { keys: PublicTargetJwk[] } {
    return { keys: this.signer.publicJwks() };
  }
}
