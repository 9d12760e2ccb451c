/**
 * What other modules may use of auth besides its module, services and
 * guards: who is calling (the `@CurrentUser()` decorator and its type), the
 * identity provider port, and the user's public view.
 */
export { CurrentUser, type AuthenticatedUser, type RequestWithUser } from './authenticated-user';
export { IDENTITY_PROVIDER, type IdentityProvider } from './identity-provider';
export { sessionEndedFor } from './jwt.strategy';
export { bearerTokenOf, clientIp, requestOrigin, type RequestOrigin } from './request-credentials';
export { toUserView } from './user-view';
