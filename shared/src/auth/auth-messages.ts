/**
 * Texts of the identity layer, word for word (clients match on them). The API answers
 * them as `detail` and the web app matches on them, so both import them from
 * here rather than retyping them.
 */
export const AUTH_MESSAGES = {
  authenticationRequired: 'Authentication required',
  notAuthenticated: 'User is not authenticated',
  invalidToken: 'Invalid or expired token',
  userDoesNotExist: 'User does not exist',
  incorrectCredentials: 'Incorrect email or password',
  passwordAttemptsExceeded: 'Password attempts exceeded',
  /** Sign-ups from one client address beyond AUTH_MAX_SIGNUPS_PER_IP in a throttling window. */
  tooManySignUps: 'Too many sign-ups from this address. Please try again later.',
  /** What the client shows for passwordAttemptsExceeded. */
  tooManyFailedAttempts: 'Too many failed attempts. Please try again later.',
  emailAlreadyRegistered: 'This email is already registered. Please sign in instead.',
  /** Social sign-in with the email of a password account, on the login intent. */
  socialLoginUsePassword: 'Authentication failed. Please try signing in with email and password.',
  passwordRequired: 'PASSWORD parameter is required',
  newPasswordRequired: 'New password is required.',
  userNotConfirmed: 'User is not confirmed.',
  alreadyConfirmed: 'User is already confirmed.',
  codeMismatch: 'Invalid verification code provided, please try again.',
  codeExpired: 'Invalid code provided, please request a code again.',
  invalidRefreshToken: 'Invalid Refresh Token',
  invalidUserPoolId: 'Invalid UserPoolId format.',
  poolAndClientRequired: 'Both UserPoolId and ClientId are required.',
  authenticationFailed: 'Authentication failed',
  noAuthorizationCode: 'No authorization code found',
  codeExchangeFailed: 'Failed to exchange code for tokens',
  socialLoginFailed: 'Social login failed',
  accountCreationFailed: 'Account creation failed. This email may already be registered.',
  /** A challenge session that expired, was already answered or belongs to someone else (the managed service's wording). */
  challengeSessionExpired: 'Invalid session for the user, session is expired.',
  recoveryCodeMismatch: 'Invalid recovery code provided, please try again.',
  /** A remembered-device key the server does not know (forgotten, expired): the client drops its device data and signs in again. */
  deviceNotFound: 'Device does not exist.',
  softwareTokenNotSetUp: 'Set up an authenticator app first.',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled.',
  twoFactorNotEnabled: 'Two-factor authentication is not enabled.',
  recoveryCodesUnavailable: 'Recovery codes are not available with this identity provider.',
  operatorCommandUnavailable: 'This command is not available with this identity provider.',
  /** A sensitive operation (new API key, account deletion, two-factor enrolment) on a session whose last sign-in is too old. */
  reauthenticationRequired: 'For your security, confirm it is you: sign in again to continue.',
  /** Re-authentication of an account with two-factor on, without its code. */
  secondFactorRequired: 'Enter the code from your authenticator app or a recovery code',
  /** Re-authentication with a password on an account that signs in only through a social provider. */
  reauthenticateWithSocialProvider: 'This account signs in through a social provider: sign in with it again to continue.',
} as const;

/** The machine-readable `code` in the 403 detail that asks for a recent sign-in. */
export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';


/** Validation messages of the sign-in and sign-up forms. */
export const AUTH_FIELD_MESSAGES = {
  nameRequired: 'Full name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: AUTH_MESSAGES.passwordRequired,
  passwordTooShort: 'Password must be at least 8 characters',
  /** The rule as the sign-up form states it before anything is sent. */
  passwordRule: 'At least 8 characters.',
  passwordTooLong: 'Password must be at most 256 characters',
  codeInvalid: 'The verification code has 6 digits',
  newPasswordRequired: AUTH_MESSAGES.newPasswordRequired,
  refreshTokenRequired: 'Refresh token is required',
  sessionRequired: 'Challenge session is required',
  challengeInvalid: 'Unknown challenge',
  totpCodeInvalid: 'The authenticator code has 6 digits',
  codeOrRecoveryCodeRequired: 'Enter the code from your authenticator app or a recovery code',
  recoveryCodeInvalid: 'A recovery code has 10 letters and digits',
  deviceNameTooLong: 'Device name is too long',
} as const;
