import type { ComponentType } from 'react';

/** A lazily loaded route module: a file under app/routes that exports its page as `Component`. */
export interface RouteModule {
  Component: ComponentType;
}

export type LazyRouteModule = () => Promise<RouteModule>;
