/**
 * What other modules use of the audit log besides its module and service:
 * the caller as an entry records it, the mark of routes that change nothing,
 * and the builders of a change's statement with its entry.
 */
export { AuditActor, type Actor } from './audit-actor';
export { NotAudited, NOT_AUDITED, type NotAuditedReason } from './not-audited.decorator';
export { auditedStatement, auditChanges, systemAuditedStatement, type AuditedChange, type AuditEntry } from './audit-events.repository';
