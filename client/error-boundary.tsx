/**
 * The boundary an `error.tsx` becomes: it catches errors of its segment and below and gives the
 * fallback `error` and `reset()` (SPEC E3). Router signals pass through untouched.
 */
import { Component, type ComponentType, type ReactNode } from 'react';
import { isRouterSignal } from '../shared/router-signals';
import type { ErrorProps } from './types';

interface Props {
  fallback: ComponentType<ErrorProps>;
  children: ReactNode;
}

export class SegmentErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    if (isRouterSignal(error)) throw error;
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  reset = (): void => this.setState({ error: null });

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const Fallback = this.props.fallback;
    return <Fallback error={error} reset={this.reset} />;
  }
}
