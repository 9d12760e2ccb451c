import { Injectable } from '@nestjs/common';
import { JOB_MESSAGES } from '@cronbeam/shared/jobs/job-rules';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';
import { ExecutorSettings } from './executor-settings';
import { isForbiddenAddress, isLiteralAddress, isMetadataHost } from './target-address';

/**
 * The one answer to "may a job's URL name this host", given before anything
 * is stored or sent: on create, on update and for a test run alike, so a test
 * run never reaches a host the saved job would be refused (or the reverse).
 * Nothing is refused with ALLOW_PRIVATE_TARGETS or for a name on
 * PRIVATE_TARGET_ALLOWLIST. Cloud metadata names are refused everywhere
 * else; loopback and private literals (127.0.0.1, [::1], localhost, 10.x…)
 * in production, so the user hears about them at once instead of from a
 * failed run. Names that resolve to such addresses are caught by the
 * executor after DNS resolution (see guarded-lookup.ts), which also checks
 * every redirect hop with isAllowedHost.
 */
@Injectable()
export class TargetPolicy {
  private readonly literalsEnforced: boolean;

  constructor(
    config: AppConfig,
    private readonly settings: ExecutorSettings,
  ) {
    this.literalsEnforced = config.isProduction;
  }

  /** The executor's per-hop check: literal private addresses, localhost and metadata names are refused unless allowed. */
  isAllowedHost(host: string): boolean {
    if (this.settings.allowPrivateTargets || this.settings.privateTargetAllowlist.has(host.toLowerCase())) return true;
    if (isMetadataHost(host)) return false;
    return !(isLiteralAddress(host) ? isForbiddenAddress(host) : isLocalhost(host));
  }

  /** Refuses a job URL (422 naming `url`) that isAllowedHost refuses; outside production only metadata names. */
  assertAllowed(url: string): void {
    const host = new URL(url).hostname;
    if (this.isAllowedHost(host)) return;
    if (this.literalsEnforced || isMetadataHost(host)) throw ApiError.invalidField(['body', 'url'], JOB_MESSAGES.urlPrivate);
  }
}

function isLocalhost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
