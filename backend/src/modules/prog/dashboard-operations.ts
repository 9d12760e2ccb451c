import { CONTACT_LIMITS } from '@cronbeam/shared/site/contact-rules';

/**
 * What the dashboard API's document says about each operation beyond what
 * the server's own decorators tell (who may call it, which schemas validate
 * it, which path parameters it looks up): a summary, the refusals its service
 * makes, and whether it is rate-limited. Every /api route must have an entry;
 * a test holds the list to the router.
 */
export interface DashboardOperation {
  summary: string;
  /** Refusals the service answers besides those the route's guards and schemas imply: status → when. */
  errors?: Record<number, string>;
  /** Rate-limited (429 with Retry-After): what is counted. */
  limited?: string;
  /** A body the route reads without a schema: the handler checks it itself (a 422 names the field), or it is verified otherwise (a signature). */
  body?: { schema: object; checkedByHandler: boolean };
}

const CONTACT_BODY = {
  type: 'object',
  required: ['name', 'email', 'message'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: CONTACT_LIMITS.nameMaxLength },
    email: { type: 'string', format: 'email', maxLength: CONTACT_LIMITS.emailMaxLength },
    subject: { type: 'string', maxLength: CONTACT_LIMITS.subjectMaxLength },
    message: { type: 'string', minLength: 1, maxLength: CONTACT_LIMITS.messageMaxLength },
  },
};

const STRIPE_EVENT = { type: 'object', description: 'A Stripe event as Stripe sends it, signed in the Stripe-Signature header.', additionalProperties: true };

const codeRefused = 'The code is wrong, expired or already used';
const badCredentials = 'Wrong email or password, or the account does not exist';
const wrongProof = 'The password or second-factor code is wrong';
const crossSite = 'A cross-site request (its Origin is not this service)';
const attempts = 'Attempts per account and per address';

export const DASHBOARD_OPERATIONS: Record<string, DashboardOperation> = {
  'get /api/ping': { summary: 'Liveness: the process answers' },
  'get /api/ready': { summary: 'Readiness: the database answers', errors: { 503: 'The database cannot be reached' } },
  'get /api/dev/outbox': { summary: 'Mail the development server would have sent (development only)', errors: { 404: 'Not a development server' } },
  'post /api/site/contact': { summary: 'Send a message through the public contact form', body: { schema: CONTACT_BODY, checkedByHandler: true }, limited: 'Messages per address' },
  'post /api/auth/signup': { summary: 'Create an account (a verification code is mailed)', errors: { 409: 'The email is already registered' }, limited: 'Sign-ups per address' },
  'post /api/auth/verify': { summary: 'Confirm the email with the mailed code', errors: { 400: codeRefused }, limited: attempts },
  'post /api/auth/resend-code': { summary: 'Mail a new verification code', errors: { 400: 'The email is already confirmed' }, limited: 'Mails per account and per address' },
  'post /api/auth/login': {
    summary: 'Sign in with email and password',
    errors: { 401: badCredentials, 403: 'The email is not confirmed, or a new password is required' },
    limited: attempts,
  },
  'post /api/auth/challenge': { summary: 'Answer the second-factor challenge of a sign-in', errors: { 401: 'The challenge expired or the code is wrong' }, limited: attempts },
  'post /api/auth/refresh': { summary: 'New tokens for a refresh token (body or cookie)', errors: { 401: 'The refresh token is missing, expired or revoked', 403: crossSite } },
  'post /api/auth/logout': { summary: 'Sign out: revoke the refresh token', errors: { 403: crossSite } },
  'post /api/auth/forgot-password': { summary: 'Mail a password-reset code', limited: 'Mails per account and per address' },
  'post /api/auth/reset-password': { summary: 'Set a new password with the mailed code', errors: { 400: codeRefused }, limited: attempts },
  'post /api/auth/change-password': { summary: 'Change the password', errors: { 400: 'The current password is wrong' }, limited: attempts },
  'post /api/auth/global-sign-out': { summary: 'Sign out every session of the account' },
  'post /api/auth/reauthenticate': { summary: 'Confirm the password (and second factor) for sensitive changes', errors: { 400: wrongProof }, limited: attempts },
  'get /api/auth/mfa': { summary: 'Second-factor status' },
  'post /api/auth/mfa/totp/setup': { summary: 'Start setting up an authenticator app', errors: { 409: 'Two-factor authentication is already on' } },
  'post /api/auth/mfa/totp/enable': { summary: 'Turn on the authenticator app with its first code', errors: { 400: wrongProof, 409: 'Two-factor authentication is already on' }, limited: attempts },
  'post /api/auth/mfa/totp/disable': { summary: 'Turn off two-factor authentication', errors: { 400: wrongProof }, limited: attempts },
  'post /api/auth/mfa/recovery-codes': { summary: 'Replace the recovery codes', errors: { 400: wrongProof }, limited: attempts },
  'get /api/auth/devices': { summary: 'Remembered devices' },
  'delete /api/auth/devices/{id}': { summary: 'Forget a remembered device' },
  'patch /api/auth/profile': { summary: 'Change the display name' },
  'get /api/auth/social/authorize': { summary: 'The identity provider URL to start a social sign-in', errors: { 404: 'Social sign-in is not configured' } },
  'post /api/auth/social-login': {
    summary: 'Finish a social sign-in with the provider’s code',
    errors: { 400: 'No authorization code', 401: 'The provider refused, or the sign-in expired', 409: 'The email belongs to another sign-in method' },
  },
  'get /api/account': { summary: 'The signed-in account' },
  'delete /api/account': { summary: 'Delete the account with its jobs, monitors and keys' },
  'post /api/jobs': { summary: 'Create a job', errors: { 403: "The plan's job limit is reached" } },
  'get /api/jobs': { summary: 'List jobs (optionally only those with a tag)' },
  'post /api/jobs/bulk-action': { summary: 'Pause, resume or delete every job with a tag' },
  'post /api/jobs/bulk': { summary: 'Create many jobs at once (all or none)', errors: { 403: "The plan's job limit is reached" } },
  'post /api/jobs/test': { summary: 'Send a definition once without saving it', limited: 'Test requests per user' },
  'post /api/jobs/target-check': { summary: 'Whether this server would send requests to a URL' },
  'post /api/jobs/schedule-preview': { summary: 'Preview a schedule: its next runs (jitter included) and the executions it uses in 30 days' },
  'get /api/jobs/export': { summary: 'Export every job definition' },
  'post /api/jobs/import': { summary: 'Import jobs from an export or a crontab' },
  'post /api/jobs/{id}/clone': { summary: 'Copy a job', errors: { 403: "The plan's job limit is reached" } },
  'get /api/jobs/{id}': { summary: 'Get a job' },
  'put /api/jobs/{id}': { summary: 'Replace a job definition' },
  'delete /api/jobs/{id}': { summary: 'Delete a job and its logs' },
  'post /api/jobs/{id}/signing-secret': { summary: 'Replace the signing secret of a job (shown once; the old one overlaps)' },
  'post /api/jobs/{id}/pause': { summary: 'Pause a job' },
  'post /api/jobs/{id}/resume': { summary: 'Resume a job' },
  'post /api/jobs/{id}/run': { summary: 'Run a job now' },
  'get /api/jobs/{id}/logs': { summary: 'Latest runs of a job' },
  'get /api/jobs/{id}/callback-deliveries': { summary: 'Latest deliveries of a job\'s run callbacks' },
  'post /api/api-keys/generate': { summary: 'Create an API key (shown once)' },
  'get /api/api-keys': { summary: 'List API keys' },
  'delete /api/api-keys/{keyId}': { summary: 'Revoke an API key (an editor only one they made; an admin or the owner any of the account)' },
  'get /api/dashboard': { summary: 'Dashboard figures: jobs by state, plan limits, usage' },
  'get /api/admin/users': { summary: 'List users (operator)' },
  'put /api/admin/users/{user}/plan': { summary: "Change a user's plan (operator)" },
  'post /api/admin/users/{email}/require-new-password': { summary: 'Make a user choose a new password at next sign-in (operator)', errors: { 409: 'Not available with this identity provider' } },
  'get /api/events': { summary: 'Server-sent events: job, run and monitor changes of the account', limited: 'Open streams per user' },
  'post /api/stripe/create-checkout-session': { summary: 'Start a Stripe checkout for a plan', errors: { 400: 'The account is already on this plan' } },
  'post /api/stripe/confirm-plan-change': {
    summary: 'Change the plan of an active subscription',
    errors: { 400: 'The subscription is not active, or already on this plan', 404: 'No subscription' },
  },
  'post /api/stripe/cancel-subscription': { summary: 'Cancel the subscription', errors: { 400: 'No active subscription' } },
  'get /api/profile/stats': { summary: 'Plan, usage and billing state of the account' },
  'post /api/stripe/webhook': { summary: 'Stripe events (signed by Stripe)', body: { schema: STRIPE_EVENT, checkedByHandler: false }, errors: { 400: 'The signature is missing or wrong' } },
  'post /api/deploy/n8n': { summary: 'Deploy an n8n instance', errors: { 403: "The plan's deployments are used up" } },
  'get /api/deploy/n8n': { summary: 'List n8n deployments' },
  'get /api/deploy/n8n/{id}': { summary: 'Get an n8n deployment' },
  'delete /api/deploy/n8n/{id}': { summary: 'Tear an n8n deployment down' },
  'get /api/monitors': { summary: 'List heartbeat monitors (optionally only those with a tag)' },
  'post /api/monitors/bulk-action': { summary: 'Pause, resume or delete every monitor with a tag' },
  'post /api/monitors': { summary: 'Create a heartbeat monitor', errors: { 403: "The plan's job limit is reached (monitors count toward it)" } },
  'put /api/monitors/{id}': { summary: 'Replace a monitor definition' },
  'delete /api/monitors/{id}': { summary: 'Delete a monitor' },
  'post /api/monitors/{id}/pause': { summary: 'Pause a monitor' },
  'post /api/monitors/{id}/resume': { summary: 'Resume a monitor' },
  'get /api/monitors/{id}/events': { summary: 'Latest pings and misses of a monitor' },
  'get /api/alert-channels': { summary: 'List alert channels' },
  'post /api/alert-channels': { summary: 'Add an alert channel (email channels are verified first)', limited: 'Verification mails per user' },
  'delete /api/alert-channels/{id}': { summary: 'Remove an alert channel' },
  'post /api/alert-channels/{id}/test': { summary: 'Send a test alert', limited: 'Test alerts per channel and per user' },
  'post /api/alert-channels/{id}/resend-verification': { summary: 'Mail the verification link again', limited: 'One mail per channel per cooldown' },
  'get /api/alert-channels/{id}/deliveries': { summary: 'Latest deliveries of a channel' },
  'get /api/status-pages': { summary: 'List public status pages' },
  'post /api/status-pages': { summary: 'Publish a status page', errors: { 403: 'The account has as many status pages as it may' } },
  'get /api/status-pages/{id}': { summary: 'Get a status page' },
  'put /api/status-pages/{id}': { summary: 'Replace a status page definition' },
  'delete /api/status-pages/{id}': { summary: 'Delete a status page' },
  'get /api/status-pages/{id}/incidents': { summary: "Incidents of a status page's jobs and monitors, with their notes" },
  'put /api/status-pages/{id}/incidents/note': { summary: 'Write or remove the public note on an incident' },
  'get /api/status-badges': { summary: 'List badges' },
  'post /api/status-badges': { summary: 'Create a badge of a job, monitor or status page', errors: { 403: 'The account has as many badges as it may' } },
  'post /api/status-badges/{id}/rotate': { summary: 'Give a badge a new URL (the old one stops working)' },
  'delete /api/status-badges/{id}': { summary: 'Revoke a badge' },
  'get /api/audit': { summary: 'The audit log: who changed what, newest first, filtered by actor, target, action and time' },
  'get /api/audit.csv': { summary: 'The audit log as CSV, with the same filters' },
  'get /api/maintenance-windows': { summary: 'List maintenance windows' },
  'post /api/maintenance-windows': { summary: 'Create a maintenance window (alerts muted, runs optionally paused)', errors: { 403: 'The account has as many maintenance windows as it may' } },
  'get /api/maintenance-windows/{id}': { summary: 'Get a maintenance window' },
  'put /api/maintenance-windows/{id}': { summary: 'Replace a maintenance window definition' },
  'delete /api/maintenance-windows/{id}': { summary: 'Delete a maintenance window' },
  'get /api/accounts': { summary: 'Your accounts, with your role in each (your personal account first)' },
  'post /api/accounts': { summary: 'Create a team account (you are its owner)' },
  'get /api/accounts/{accountId}': { summary: 'An account you belong to, with your role' },
  'patch /api/accounts/{accountId}': { summary: 'Rename an account' },
  'delete /api/accounts/{accountId}': { summary: 'Delete a team account with everything it holds', errors: { 409: 'A personal account goes only with its user' } },
  'post /api/accounts/{accountId}/transfer': {
    summary: 'Make another member the owner (you become an admin)',
    errors: { 409: 'A personal account, or yourself', 422: 'user_id is not another member' },
  },
  'get /api/accounts/{accountId}/members': { summary: 'Members of the account and their roles' },
  'patch /api/accounts/{accountId}/members/{userId}': { summary: "Change a member's role", errors: { 409: "The owner's role changes only by a transfer" } },
  'delete /api/accounts/{accountId}/members/{userId}': { summary: 'Remove a member: their sessions lose the account at once, and the API keys they made in it are deleted', errors: { 409: 'The owner cannot be removed' } },
  'delete /api/accounts/{accountId}/membership': { summary: 'Leave the account: your sessions lose it at once, and the API keys you made in it are deleted', errors: { 409: 'The owner cannot leave: transfer ownership first' } },
  'get /api/accounts/{accountId}/invitations': { summary: 'Open invitations of the account' },
  'post /api/accounts/{accountId}/invitations': {
    summary: 'Invite an address (a single-use link valid 7 days is mailed)',
    errors: { 403: 'Members and open invitations are at the limit', 409: 'Already a member, or already invited' },
    limited: 'Invitations per account and per inviter',
  },
  'delete /api/accounts/{accountId}/invitations/{invitationId}': { summary: 'Revoke an open invitation' },
  'get /api/invitations/{token}': { summary: "What an invitation's link offers: the account's name, the role and the invited address" },
  'post /api/invitations/accept': {
    summary: 'Join the account of an invitation (signed in with the invited, confirmed address)',
    errors: { 403: 'Signed in with another address, or the address is not confirmed', 404: 'No such invitation', 409: 'Expired, revoked or already used' },
  },
  'post /api/alert-channel-verifications': { summary: 'Verify an email channel with the mailed token', errors: { 400: 'The link is unknown or expired' } },
};
