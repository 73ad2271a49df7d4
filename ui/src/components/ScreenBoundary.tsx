// Keeps one screen's failure to that screen: a render error shows what went wrong where the screen
// would be, with a way to try again, while the navigation around it keeps working. Keyed by the
// screen in App.tsx, so moving to another screen starts afresh.

import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Card, ErrorNote, PageHeader } from './Page.tsx';

interface Props {
  /** The screen's name for the heading ("Activity"). */
  name: string;
  children: ReactNode;
}

export class ScreenBoundary extends Component<Props, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The console keeps the component stack for whoever reports the problem.
    console.error(`The ${this.props.name} screen failed:`, error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <>
        <PageHeader title={this.props.name} />
        <Card>
          <ErrorNote onRetry={() => this.setState({ error: null })}>
            This screen could not be shown: {error.message}. The other screens still work; reloading the window may help.
          </ErrorNote>
        </Card>
      </>
    );
  }
}
