import { Component, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useDocumentTitle } from '../../lib/use-document-title';

interface BoundaryProps {
  /** The current path: the boundary clears its error when the user goes somewhere else. */
  resetKey: string;
  children: ReactNode;
}
interface BoundaryState {
  failure: { error: unknown } | null;
  resetKey: string;
}

/** Shows `RouteError` instead of a screen that threw while rendering or while its code loaded. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failure: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failure: { error } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failure: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.failure ? <RouteError error={this.state.failure.error} /> : this.props.children;
  }
}

/** What a screen that failed shows: what went wrong, and the way home. */
function RouteError({ error }: { error: unknown }) {
  useDocumentTitle('Something went wrong');
  const detail = error instanceof Error ? error.message : null;
  return (
    <main className="q-center-column q-center-page" role="alert">
      <h1>Something went wrong</h1>
      <p>This screen failed to show. Reloading the page usually helps.</p>
      {detail && (
        <p>
          <code>{detail}</code>
        </p>
      )}
      <Link to={paths.landing}>Go to the home page</Link>
    </main>
  );
}
