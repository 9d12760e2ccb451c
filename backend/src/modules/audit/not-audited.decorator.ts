import { SetMetadata } from '@nestjs/common';

export const NOT_AUDITED = 'cronbeam:not-audited';

/**
 * Why a mutating route writes no audit entry. Without a condition, never;
 * with conditions, only for the requests where one holds: `whenBodyFlag`,
 * that flag of the body is true (a dry run); `whenAnswerZero`, that field of
 * the answer is 0 (an import that created nothing stored nothing to record).
 */
export interface NotAuditedReason {
  reason: string;
  whenBodyFlag?: string;
  whenAnswerZero?: string;
}

/**
 * Marks a POST/PUT/PATCH/DELETE route that changes nothing an account owns
 * (a preview, a test request, a check), so it writes no audit entry. The API
 * tests read this mark: every other mutating route must leave exactly one
 * entry per successful request. A condition limits the mark to some requests
 * (see NotAuditedReason).
 */
export const NotAudited = (reason: string, when: Omit<NotAuditedReason, 'reason'> = {}) => SetMetadata(NOT_AUDITED, { reason, ...when } satisfies NotAuditedReason);
