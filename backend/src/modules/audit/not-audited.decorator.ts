import { SetMetadata } from '@nestjs/common';

export const NOT_AUDITED = 'cronbeam:not-audited';

/** Why a mutating route writes no audit entry; with `whenBodyFlag`, only when that flag of the body is true (a dry run). */
export interface NotAuditedReason {
  reason: string;
  whenBodyFlag?: string;
}

/**
 * Marks a POST/PUT/PATCH/DELETE route that changes nothing an account owns
 * (a preview, a test request, a check), so it writes no audit entry. The API
 * tests read this mark: every other mutating route must leave exactly one
 * entry per successful request. `whenBodyFlag` limits the mark to requests
 * whose body sets that flag (an import's dry_run).
 */
export const NotAudited = (reason: string, whenBodyFlag?: string) => SetMetadata(NOT_AUDITED, { reason, whenBodyFlag } satisfies NotAuditedReason);
