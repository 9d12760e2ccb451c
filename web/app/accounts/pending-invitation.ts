import { INVITATION_PATH } from '@cronbeam/shared/accounts/account-rules';

/**
 * An invitation opened while signed out waits here (this tab only) while its
 * reader signs in; the token never travels in a URL's query, which servers log.
 */
const KEY = 'cronbeam.pendingInvitation';

export function rememberInvitation(token: string): void {
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // Storage refused: after signing in, the reader opens the mail's link again.
  }
}

/** The invitation page for the token waiting in this tab (consumed), or null. */
export function takePendingInvitationPath(): string | null {
  try {
    const token = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return token ? `${INVITATION_PATH}#token=${encodeURIComponent(token)}` : null;
  } catch {
    return null;
  }
}
