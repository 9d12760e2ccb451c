// First: the schemas the other imports build must see this setting.
import './zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { startDesktopPlatform } from './platform/desktop-start';
import './styles/app.css';

// In the desktop shell the session comes from the main process: load it before the first route decision.
void startDesktopPlatform()
  .catch((error: unknown) => console.error('Desktop platform:', error))
  .finally(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
