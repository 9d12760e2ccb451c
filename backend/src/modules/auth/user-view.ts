import type { PlanId } from '@cronbeam/shared/plans';
import type { UserView } from '@cronbeam/shared/auth/user-view';
import type { UserEntity } from './user.entity';

/** `plan` is the plan of the user's personal account. */
export function toUserView(user: UserEntity, plan: PlanId): UserView {
  return {
    user_id: user.id,
    email: user.email,
    name: user.name,
    plan,
    email_verified: user.emailVerified,
    created_at: user.createdAt.toISOString(),
  };
}
