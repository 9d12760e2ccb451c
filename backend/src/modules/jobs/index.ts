/** What other modules may use of jobs besides its module and services: the bulk-creation request and answer. */
export { JOB_BULK_BODY_LIMIT, JOB_BULK_MAX, JOB_BULK_PATHS, jobBulkRequestSchema, type JobBulkRequest, type JobBulkResult } from './job-bulk';
