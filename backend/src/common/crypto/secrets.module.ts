import { Global, Logger, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { loadMasterKeys } from './master-keys';
import { ResealSweep } from './reseal-sweep';
import { SecretBox } from './secret-box';

function secretBoxFrom(config: AppConfig): SecretBox {
  const keys = loadMasterKeys(config);
  const box = new SecretBox(keys.current, keys.previous);
  if (keys.keyFile) {
    new Logger('Encryption').warn(
      `ENCRYPTION_KEY is not set: secrets in the database are encrypted with the key in ${keys.keyFile} (id ${box.currentKeyId}). ` +
        'Back that file up with the database (without it they cannot be read), and set ENCRYPTION_KEY in production.',
    );
  }
  return box;
}

/** Encryption of secrets at rest: the SecretBox that owning repositories seal and open with, and the start-up reseal sweep. */
@Global()
@Module({
  providers: [{ provide: SecretBox, useFactory: secretBoxFrom, inject: [AppConfig] }, ResealSweep],
  exports: [SecretBox, ResealSweep],
})
export class SecretsModule {}
