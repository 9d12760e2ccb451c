import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { jobDefinitionSchema } from '@cronbeam/shared/jobs/job-rules';
import { TargetPolicy } from '../executor/target-policy.service';

/** The warning for a URL a server saves (outside production) but whose every run its executor refuses. */
export const REFUSED_WHEN_RUN =
  'This server does not send requests to private, loopback or link-local addresses: every run of this job would fail. Use a public address (or, on your own development server, set ALLOW_PRIVATE_TARGETS=true).';

export const targetCheckSchema = z.strictObject({ url: jobDefinitionSchema.shape.url });

/** The answer of POST /api/jobs/target-check: a warning when the job would save but never run. */
export interface TargetCheck {
  warning: string | null;
}

/**
 * The job form's question before saving: will this server's executor send
 * requests to this URL? The answer is the executor's own target policy, so
 * the form warns exactly when runs would be refused. Where saving itself is
 * refused (production, cloud metadata names), the check is refused the same
 * way (422 on `url`).
 */
@Injectable()
export class JobTargetCheck {
  constructor(private readonly targets: TargetPolicy) {}

  check(url: string): TargetCheck {
    this.targets.assertAllowed(url);
    return { warning: this.targets.isAllowedHost(new URL(url).hostname) ? null : REFUSED_WHEN_RUN };
  }
}
