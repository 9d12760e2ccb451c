import { socialAuthorizeUrl } from '../api/auth-api';
import { apiBase, sessionStorageAdapter } from '../platform/platform';

/** 'Continue with Google': remembers whether this was a sign-in or a sign-up, then hands over to the provider. */
export function SocialButton({ intent }: { intent: 'login' | 'signup' }) {
  const start = () => {
    sessionStorageAdapter().set('authIntent', intent);
    window.location.assign(socialAuthorizeUrl(apiBase(), intent));
  };
  return (
    <button type="button" className="button button-secondary button-block" onClick={start}>
      <span className="google-mark" aria-hidden="true">G</span>
      {intent === 'signup' ? 'Sign up with Google' : 'Continue with Google'}
    </button>
  );
}
