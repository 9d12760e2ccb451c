import { Logger } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';

/** What the call was, so the same Cognito exception can read as the right AUTH_MESSAGES text for that context. */
export type CognitoOperation =
  | 'signUp'
  | 'confirm'
  | 'login'
  | 'refresh'
  | 'revoke'
  | 'forgot'
  | 'reset'
  | 'changePassword'
  | 'session'
  /** Answering a sign-in challenge, or proving a software-token code. */
  | 'challenge'
  | 'device';

const logger = new Logger('CognitoIdentityProvider');

/**
 * Maps an exception of the user pool to the API's answer with the texts of
 * AUTH_MESSAGES. Unknown failures (network, throttling by AWS, misconfiguration) are
 * logged and answered 502, so they are not mistaken for wrong credentials.
 */
export function toApiError(error: unknown, operation: CognitoOperation): ApiError {
  const name = (error as { name?: string } | null)?.name ?? '';
  const message = (error as { message?: string } | null)?.message ?? '';
  switch (name) {
    case 'UserNotFoundException':
      return operation === 'login' ? ApiError.unauthorized(AUTH_MESSAGES.userDoesNotExist) : ApiError.notFound(AUTH_MESSAGES.userDoesNotExist);
    case 'NotAuthorizedException':
      if (/attempts exceeded/i.test(message)) return ApiError.tooManyRequests(AUTH_MESSAGES.passwordAttemptsExceeded, 60);
      if (operation === 'login') return ApiError.unauthorized(AUTH_MESSAGES.incorrectCredentials);
      // A wrong current password is a bad field (the session is fine); a revoked or expired access token is not.
      if (operation === 'changePassword') {
        return /token/i.test(message) ? ApiError.unauthorized(AUTH_MESSAGES.notAuthenticated) : ApiError.badRequest(AUTH_MESSAGES.incorrectCredentials);
      }
      if (operation === 'refresh' || operation === 'revoke') return ApiError.unauthorized(AUTH_MESSAGES.invalidRefreshToken);
      if (operation === 'confirm') return ApiError.badRequest(AUTH_MESSAGES.alreadyConfirmed);
      if (operation === 'challenge' && /session/i.test(message)) return ApiError.unauthorized(AUTH_MESSAGES.challengeSessionExpired);
      return ApiError.unauthorized(AUTH_MESSAGES.notAuthenticated);
    case 'UserNotConfirmedException':
      return ApiError.forbidden(AUTH_MESSAGES.userNotConfirmed);
    case 'UsernameExistsException':
    case 'AliasExistsException':
      return ApiError.conflict(AUTH_MESSAGES.emailAlreadyRegistered);
    case 'CodeMismatchException':
    case 'EnableSoftwareTokenMFAException':
      return ApiError.badRequest(AUTH_MESSAGES.codeMismatch);
    case 'ExpiredCodeException':
      return ApiError.badRequest(AUTH_MESSAGES.codeExpired);
    case 'InvalidPasswordException':
      // cognito-local reports a wrong password at sign-in this way (the real pool says NotAuthorized).
      if (operation === 'login') return ApiError.unauthorized(AUTH_MESSAGES.incorrectCredentials);
      return ApiError.invalidField(['body', operation === 'signUp' ? 'password' : 'new_password'], message || 'Invalid password');
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return ApiError.tooManyRequests(AUTH_MESSAGES.passwordAttemptsExceeded, 60);
    case 'ResourceNotFoundException':
      if (operation === 'device' || /device/i.test(message)) return ApiError.notFound(AUTH_MESSAGES.deviceNotFound);
      logger.error({ err: error, operation }, 'Cognito call failed');
      return new ApiError(502, AUTH_MESSAGES.authenticationFailed);
    case 'SoftwareTokenMFANotFoundException':
      return ApiError.badRequest(AUTH_MESSAGES.softwareTokenNotSetUp);
    case 'PasswordResetRequiredException':
      return ApiError.forbidden(AUTH_MESSAGES.newPasswordRequired);
    default:
      logger.error({ err: error, operation }, 'Cognito call failed');
      return new ApiError(502, AUTH_MESSAGES.authenticationFailed);
  }
}
