import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { displayNameOf } from '../session/id-token';
import { useSession } from '../session/session-store';

/** The avatar menu: the display name, Profile, Upgrade Plan and Logout. */
export function UserMenu({ onLogout }: { onLogout(): void }) {
  const name = displayNameOf(useSession((s) => s.idToken));
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={root}>
      <button type="button" className="user-menu-trigger" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="avatar" aria-hidden="true">
          {name.charAt(0).toUpperCase()}
        </span>
        <span className="user-name">{name}</span>
      </button>
      {open && (
        <div className="user-menu-list" role="menu">
          <div className="user-menu-name">{name}</div>
          <Link role="menuitem" to="/profile">
            Profile
          </Link>
          <Link role="menuitem" to="/pricing">
            Upgrade Plan
          </Link>
          <button type="button" role="menuitem" onClick={onLogout}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
