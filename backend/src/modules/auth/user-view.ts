import type { UserView } from '@cronbeam/shared/auth/user-view';
import type { UserEntity } from './user.entity';

export function toUserView(user: UserEntity): UserView {
  return {
    user_id: user.id,
    email: user.email,
    name: user.name,
    plan: user.plan,
    email_verified: user.emailVerified,
    created_at: user.createdAt.toISOString(),
  };
}
