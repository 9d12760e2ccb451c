import type { NavigateFunction } from 'react-router-dom';

/** Follows a URL the server chose: inside the app by the router, elsewhere (Stripe's checkout) by the browser. */
export function goTo(url: string, navigate: NavigateFunction): void {
  const target = new URL(url, window.location.href);
  if (target.origin === window.location.origin) navigate(target.pathname + target.search);
  else window.location.assign(target.href);
}
