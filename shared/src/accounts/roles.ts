/**
 * A member's role in an account. Each role can do everything the roles after
 * it can: owner (billing, deleting the account, transferring ownership),
 * admin (members and every resource), editor (jobs, monitors, channels and
 * their own keys), viewer (reads only).
 */
export const ACCOUNT_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

const RANK: Record<AccountRole, number> = { owner: 3, admin: 2, editor: 1, viewer: 0 };

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: AccountRole, needed: AccountRole): boolean {
  return RANK[role] >= RANK[needed];
}
