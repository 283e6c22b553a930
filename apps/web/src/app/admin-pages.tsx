import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { NavPageEntry } from '../components/nav-tree';
import type { AdminNavKey } from '../features/admin/nav-outline';
import type { LazyRouteModule } from './route-module';
import { EmbeddedNotFound, EmbeddedRouteError } from './route-error';
import { titledRoute } from './titled-route';

/** A page of the admin shell (`/admin/...`); an entry with `nav` shows that admin navigation item. */
export interface AdminPage {
  /** Path below `/admin`, e.g. `system-provider-bots`; `index: true` also serves it at `/admin`. */
  path: string;
  /** The page's name in the document title, before "Admin": "Channels" → "Channels · Admin · Greenroom". */
  title: string;
  index?: boolean;
  lazy: LazyRouteModule;
  nav?: AdminNavKey;
  /** Badge on the nav item (e.g. System Provider Bots: count of bots needing reconnect); `lazy(...)`, like the channel badges. */
  badge?: ComponentType;
}

/** The admin page registry: one entry per admin page; `nav` entries make the admin navigation. */
export const adminPages: AdminPage[] = [
  { path: 'channels', title: 'Channels', index: true, nav: 'channels', lazy: () => import('./routes/admin/channels') },
  {
    path: 'system-provider-bots',
    title: 'System Provider Bots',
    nav: 'system-provider-bots',
    badge: lazy(() =>
      import('../features/admin-system-bots/components/system-bots-nav-badge').then((m) => ({ default: m.SystemBotsNavBadge })),
    ),
    lazy: () => import('./routes/admin/system-provider-bots'),
  },
  {
    path: 'system-provider-bots/:provider',
    title: 'System Provider Bots',
    lazy: () => import('./routes/admin/system-provider-bot'),
  },
  {
    path: 'command-templates',
    title: 'Command Templates',
    nav: 'command-templates',
    lazy: () => import('./routes/admin/command-templates'),
  },
  { path: 'command-templates/:commandTemplateId', title: 'Command Templates', lazy: () => import('./routes/admin/command-template') },
];

/** Route objects for the children of `/admin`; an unknown admin page shows 404 inside the admin shell. */
export function adminPageRoutes(pages: AdminPage[] = adminPages): RouteObject[] {
  const routes = pages.flatMap((page): RouteObject[] => {
    const lazy = titledRoute(page.title, page.lazy);
    const route: RouteObject = { path: page.path, lazy, ErrorBoundary: EmbeddedRouteError };
    return page.index ? [{ index: true, lazy, ErrorBoundary: EmbeddedRouteError }, route] : [route];
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
      badge: Badge ? (
        <Suspense fallback={null}>
          <Badge />
        </Suspense>
      ) : undefined,
    };
  }
  return entries;
}
