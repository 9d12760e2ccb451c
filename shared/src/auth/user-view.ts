import type { PlanId } from '../plans';

/** A user as the account page (GET /api/account) and the operators' API show it. */
export interface UserView {
  user_id: string;
  email: string;
  name: string;
  plan: PlanId;
  email_verified: boolean;
  created_at: string;
}
