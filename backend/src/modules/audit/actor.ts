/** Who made a change, in which account, from where and in which request: what every audit entry records of its author. */
export interface Actor {
  accountId: string;
  /** The signed-in user, or the user whose API key was presented. */
  userId: string | null;
  /** The API key presented (null for a signed-in user). */
  keyId: string | null;
  ip: string | null;
  requestId: string | null;
}
