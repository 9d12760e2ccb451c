import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';

/**
 * The error texts the app shows (sign-in, sign-up, network and billing
 * failures), in one place so every screen says the same thing. Texts the API also
 * answers come from the shared auth messages.
 */
export const ERROR_TEXT = {
  sessionExpired: 'Your session has expired. Please login again.',
  sessionCheckExpired: 'Session expired. Please log in again.',
  authRequired: AUTH_MESSAGES.authenticationRequired,
  authRequiredLogs: 'Authentication required for logs',
  logsAuthFailed: 'Authentication failed for logs API',
  jobLimit: 'You have reached your job limit. Please upgrade your plan to create more jobs.',
  generic: 'An error occurred',
  userNotFound: AUTH_MESSAGES.userDoesNotExist,
  wrongCredentials: AUTH_MESSAGES.incorrectCredentials,
  /** Change Password: the API answers a wrong current password in the sign-in's words, which name an email nobody typed there. */
  currentPasswordIncorrect: 'The current password is not correct',
  tooManyAttempts: AUTH_MESSAGES.tooManyFailedAttempts,
  authFailed: AUTH_MESSAGES.authenticationFailed,
  emailAlreadyRegistered: AUTH_MESSAGES.emailAlreadyRegistered,
  socialLoginUsePassword: AUTH_MESSAGES.socialLoginUsePassword,
  signupFailed: 'Signup failed',
  dashboardProblem: 'There was a problem loading the dashboard',
  backendUnreachable: 'Failed to connect to the backend service',
  serverUnreachable: 'Cannot reach server. Please try again later.',
  fixErrors: 'Please fix the errors before submitting',
  logsAuthError: 'Authentication error: Please log in again',
  logsAuthIssue: 'Authentication issue with logs API. Please refresh the page.',
  logsNotFound: 'Logs endpoint not found. This feature may not be available yet.',
  noLogData: 'No valid log data received',
  noAuthCode: AUTH_MESSAGES.noAuthorizationCode,
  socialLoginFailed: AUTH_MESSAGES.socialLoginFailed,
} as const;

/** Words that must never reach the screen or a log line, whatever the server said. */
const SECRET_WORDS = /\b(password|token|secret|key|credentials)s?\b/gi;

/** Replaces the secret-sounding words (token, password, key...) of every message shown, so no error reads like a leak. */
export function scrubSecrets(message: string): string {
  return message.replace(SECRET_WORDS, '***');
}

/** Strips the identity provider's prefixes and URL-encoding from a login or sign-up error, so the user reads plain text. */
export function cleanAuthMessage(raw: string): string {
  let text = raw.replace(/\+/g, ' ');
  try {
    text = decodeURIComponent(text);
  } catch {
    // A stray % is left as it is.
  }
  text = text.replace(/^PreSignUp failed with error\s*/i, '').replace(/^Login failed:\s*/i, '').trim();
  if (text === AUTH_MESSAGES.passwordAttemptsExceeded || /password attempts exceeded/i.test(text)) return ERROR_TEXT.tooManyAttempts;
  return text;
}
