import { Component, type ReactNode } from 'react';

/**
 * How browsers word a lazily loaded module that could not be fetched: the
 * server was down for a moment, or a deploy replaced the hashed asset files
 * this page still asks for. Only a full reload helps (React caches the failed import).
 */
const CHUNK_LOAD_FAILURE = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadFailure(error: unknown): boolean {
  return error instanceof Error && CHUNK_LOAD_FAILURE.test(error.message);
}

interface ErrorBoundaryProps {
  children: ReactNode;
  /** A change (the route) clears the error, so navigating away from a broken screen shows the next one. */
  resetKey: string;
  /** 'page' fills the window; 'section' sits inside the dashboard, its menu still usable. */
  variant: 'page' | 'section';
}

interface ErrorBoundaryState {
  error: unknown;
  failedKey: string | null;
}

/** Whatever a screen throws while it loads or renders ends on this screen with a reload button, never a blank page. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, failedKey: null };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    if (state.error && state.failedKey === null) return { failedKey: props.resetKey };
    if (state.error && state.failedKey !== props.resetKey) return { error: null, failedKey: null };
    return null;
  }

  override componentDidCatch(error: unknown): void {
    console.error('Screen failed:', error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const chunk = isChunkLoadFailure(this.state.error);
    return (
      <div className={this.props.variant === 'page' ? 'error-screen error-screen-page' : 'error-screen panel panel-padded'} role="alert">
        <h1>{chunk ? 'This screen could not load' : 'Something went wrong'}</h1>
        <p className="muted">
          {chunk
            ? 'The server could not be reached, or Cronbeam was updated since this page opened. Reload to get the current version.'
            : 'An unexpected error stopped this screen. Reloading the page usually fixes it.'}
        </p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload page
        </button>
      </div>
    );
  }
}
