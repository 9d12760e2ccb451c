import { Link } from 'react-router-dom';
import { AuthLayout } from '../auth/auth-layout';

export function NotFoundPage() {
  return (
    <AuthLayout title="Page not found" subtitle="The page you asked for does not exist.">
      <Link className="button button-primary button-block" to="/">
        Go to Cronbeam
      </Link>
    </AuthLayout>
  );
}
