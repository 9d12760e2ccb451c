import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { CoreDataModel1763800100000 } from './1763800100000-core-data-model';
import { Identity1763800200000 } from './1763800200000-identity';
import { MailOutbox1763800200100 } from './1763800200100-mail-outbox';
import { ApiKeysAndJobNames1763800300000 } from './1763800300000-api-keys-and-job-names';
import { JobAlertStates1763800400000 } from './1763800400000-job-alert-states';
import { N8nDeployments1763806000000 } from './1763806000000-n8n-deployments';
import { Billing1763807000000 } from './1763807000000-billing';
import { AccountSecurity1763808220000 } from './1763808220000-account-security';
import { JobTimeZones1763809100000 } from './1763809100000-job-time-zones';
import { JobResponseRules1763809200000 } from './1763809200000-job-response-rules';
import { AlertChannels1763809300000 } from './1763809300000-alert-channels';
import { HeartbeatMonitors1763809400000 } from './1763809400000-heartbeat-monitors';
import { MonitorSchedulesAndAlertQueue1763809600000 } from './1763809600000-monitor-schedules-and-alert-queue';
import { SchedulerInstances1763809750000 } from './1763809750000-scheduler-instances';
import { JobCounts1763809800000 } from './1763809800000-job-counts';
import { RefreshTokenAuthenticatedAt1763810100000 } from './1763810100000-refresh-token-authenticated-at';
import { AlertChannelVerification1763810300000 } from './1763810300000-alert-channel-verification';
import { SealedJobHeaders1763810400000 } from './1763810400000-sealed-job-headers';
import { RunDispatchLog1763810600000 } from './1763810600000-run-dispatch-log';
import { RateLimitWindows1763811000000 } from './1763811000000-rate-limit-windows';
import { PlanSlotsCheck1763811000001 } from './1763811000001-plan-slots-check';
import { AlertEpisodes1763811100000 } from './1763811100000-alert-episodes';
import { AlertThresholds1763811150000 } from './1763811150000-alert-thresholds';
import { Tags1763900200000 } from './1763900200000-tags';
import { StatusPages1763900300000 } from './1763900300000-status-pages';
import { StatusPageTagItems1763900300100 } from './1763900300100-status-page-tag-items';
import { PartitionedJobRuns1763900400000 } from './1763900400000-partitioned-job-runs';
import { JobsFillfactor1763900400100 } from './1763900400100-jobs-fillfactor';
import { JobRetryPolicy1763900100000 } from './1763900100000-job-retry-policy';
import { JobRequestSigning1763900110000 } from './1763900110000-job-request-signing';
import { MaintenanceWindows1764000200000 } from './1764000200000-maintenance-windows';
import { RunCallbacks1764000100000 } from './1764000100000-run-callbacks';
import { CertificateExpiry1764000200100 } from './1764000200100-certificate-expiry';
import { JobScheduleForms1764000000000 } from './1764000000000-job-schedule-forms';
import { Accounts1764100000000 } from './1764100000000-accounts';
import { AccountsOwnResources1764100100000 } from './1764100100000-accounts-own-resources';
import { AuditEvents1764100300000 } from './1764100300000-audit-events';
import { DueIndexWithoutStatus1764100400000 } from './1764100400000-due-index-without-status';

/**
 * Every migration, in order. Listed explicitly so bundled and test builds find
 * them without globbing. Add new ones at the end, one line each.
 */
export const MIGRATIONS = [InitialSchema1763800000000, CoreDataModel1763800100000, Identity1763800200000, MailOutbox1763800200100, ApiKeysAndJobNames1763800300000, JobAlertStates1763800400000, N8nDeployments1763806000000, Billing1763807000000, AccountSecurity1763808220000, JobTimeZones1763809100000, JobResponseRules1763809200000, AlertChannels1763809300000, HeartbeatMonitors1763809400000, MonitorSchedulesAndAlertQueue1763809600000, SchedulerInstances1763809750000, JobCounts1763809800000, RefreshTokenAuthenticatedAt1763810100000, AlertChannelVerification1763810300000, SealedJobHeaders1763810400000, RunDispatchLog1763810600000, RateLimitWindows1763811000000, PlanSlotsCheck1763811000001, AlertEpisodes1763811100000, AlertThresholds1763811150000, Tags1763900200000, StatusPages1763900300000, StatusPageTagItems1763900300100, PartitionedJobRuns1763900400000, JobsFillfactor1763900400100, JobRetryPolicy1763900100000, JobRequestSigning1763900110000, MaintenanceWindows1764000200000, RunCallbacks1764000100000, CertificateExpiry1764000200100, JobScheduleForms1764000000000, Accounts1764100000000, AuditEvents1764100300000, AccountsOwnResources1764100100000, DueIndexWithoutStatus1764100400000];
