import { Injectable } from '@nestjs/common';
import { JOB_MESSAGES } from '@shared/jobs/job-rules';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import { isForbiddenAddress } from './target-address';

/**
 * Refuses, when the job is saved, URLs that name a private or loopback host
 * literally (127.0.0.1, [::1], localhost, 10.x…), so the user hears about it
 * at once instead of from a failed run. Only in production without
 * ALLOW_PRIVATE_TARGETS; names that resolve to such addresses are caught by
 * the executor after DNS resolution (see guarded-lookup.ts).
 */
@Injectable()
export class TargetPolicy {
  private readonly enforced: boolean;

  constructor(config: AppConfig) {
    this.enforced = config.isProduction && !config.env.ALLOW_PRIVATE_TARGETS;
  }

  assertAllowed(url: string): void {
    if (!this.enforced) return;
    const host = new URL(url).hostname.toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost') || isForbiddenAddress(host)) {
      throw ApiError.invalidField(['body', 'url'], JOB_MESSAGES.urlPrivate);
    }
  }
}
