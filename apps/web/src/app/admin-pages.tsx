import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { NavPageEntry } from '../components/nav-tree';
import type { AdminNavKey } from '../features/admin/nav-outline';
import type { LazyRouteModule } from './route-module';
import { EmbeddedNotFound, EmbeddedRouteError } from './route-error';
import { SystemBotsNavBadge } from '../features/admin-system-bots/components/system-bots-nav-badge';

/** A page of the admin shell (`/admin/...`); an entry with `nav` shows that admin navigation item. */
export interface AdminPage {
  /** Path below `/admin`, e.g. `system-provider-bots`; `index: true` also serves it at `/admin`. */
  path: string;
  index?: boolean;
  lazy: LazyRouteModule;
  nav?: AdminNavKey;
  /** Badge on the nav item (e.g. System Provider Bots: count of bots needing reconnect). */
  badge?: ComponentType;
}

/** The admin page registry. Later features add System Provider Bots and Command Templates here. */
export const adminPages: AdminPage[] = [
  { path: 'channels', index: true, nav: 'channels', lazy: () => import('./routes/admin/channels') },
  {
    path: 'system-provider-bots',
    nav: 'system-provider-bots',
    badge: SystemBotsNavBadge,
    lazy: () => import('./routes/admin/system-provider-bots'),
  },
  { path: 'system-provider-bots/:provider', lazy: () => import('./routes/admin/system-provider-bot') },
];

/** Route objects for the children of `/admin`; an unknown admin page shows 404 inside the admin shell. */
export function adminPageRoutes(pages: AdminPage[] = adminPages): RouteObject[] {
  const routes = pages.flatMap((page): RouteObject[] => {
    const route: RouteObject = { path: page.path, lazy: page.lazy, ErrorBoundary: EmbeddedRouteError };
    return page.index ? [{ index: true, lazy: page.lazy, ErrorBoundary: EmbeddedRouteError }, route] : [route];
  });
  return [...routes, { path: '*', Component: EmbeddedNotFound }];
}

export function adminNavPages(pages: AdminPage[] = adminPages): Partial<Record<AdminNavKey, NavPageEntry>> {
  const entries: Partial<Record<AdminNavKey, NavPageEntry>> = {};
  for (const page of pages) {
    if (!page.nav) continue;
    const Badge = page.badge;
    // The index page answers at /admin too: its item is active there as well.
    entries[page.nav] = {
      to: `/admin/${page.path}`,
      activePaths: page.index ? ['/admin'] : undefined,
      badge: Badge ? <Badge /> : undefined,
    };
  }
  return entries;
}
