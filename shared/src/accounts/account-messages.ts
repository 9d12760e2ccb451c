import type { AccountRole } from './roles';

/** The header a session names the account it acts in by (absent: the user's personal account). */
export const ACCOUNT_HEADER = 'X-Cronbeam-Account';
/** The path parameter of the routes about one account (/api/accounts/{accountId}/…): it names the account instead of the header. */
export const ACCOUNT_PATH_PARAM = 'accountId';

/** Texts the API answers about accounts, members and invitations (the web app shows them as they are). */
export const ACCOUNT_MESSAGES = {
  /** Also for an account the caller is not a member of: whether it exists is not told. */
  accountNotFound: 'Account not found',
} as const;

/** The refusal of a route the caller's role does not allow. */
export function roleRefusal(role: AccountRole): string {
  return `Your role in this account (${role}) cannot do this`;
}
