import { Button } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, type RouteObject } from 'react-router';
import { can, type ChannelAbility } from '@greenroom/contracts/abilities';
import type { Channel } from '@greenroom/contracts/api/channels';
import type { NavPageEntry } from '../components/nav-tree';
import { PlatformsNavBadge } from '../features/channel-providers/components/platforms-nav-badge';
import { PageState } from '../components/page-state';
import type { ChannelNavKey } from '../features/channel-shell/nav-outline';
import type { LazyRouteModule } from './route-module';
import { EmbeddedNotFound, EmbeddedRouteError } from './route-error';
import { useCurrentChannel } from './routes/channels/use-current-channel';

/**
 * A page of the channel shell (`/channels/:channelId/...`). Register one entry per route; an entry with `nav`
 * makes the matching side-navigation item appear (items without a page stay hidden).
 */
export interface ChannelPage {
  /** Path below `/channels/:channelId`, e.g. `chat-commands` or `chat-commands/:commandId`; omit for the index (dashboard). */
  path?: string;
  /** `() => import('./routes/channels/<page>')`; the module exports `Component`. */
  lazy: LazyRouteModule;
  /** The navigation item this page backs. Only one entry per key (the list page, not its detail page). */
  nav?: ChannelNavKey;
  /** The ability (from the one ability table in contracts) that sees the nav item and may open the page. */
  ability?: ChannelAbility;
  /** Badge shown on the nav item (e.g. the Platforms reconnect count). */
  badge?: ComponentType<{ channel: Channel }>;
}

/** The channel page registry. Later features add their pages here — nothing else is needed for route and nav. */
export const channelPages: ChannelPage[] = [
  { nav: 'dashboard', lazy: () => import('./routes/channels/dashboard') },
  // Editors update titles and categories there; Admins also connect and disconnect.
  {
    path: 'providers',
    nav: 'platforms',
    ability: 'stream.update',
    badge: PlatformsNavBadge,
    lazy: () => import('./routes/channels/providers'),
  },
  { path: 'providers/:channelProviderId', ability: 'stream.update', lazy: () => import('./routes/channels/provider-detail') },
  { path: 'chat', nav: 'chat', ability: 'chat.moderate', lazy: () => import('./routes/channels/chat') },
  { path: 'activity-feed', nav: 'activity-feed', ability: 'activity.read', lazy: () => import('./routes/channels/activity-feed') },
  { path: 'user-access', nav: 'user-access', ability: 'staff.manage', lazy: () => import('./routes/channels/user-access') },
  { path: 'settings', nav: 'channel-settings', ability: 'channel.rename', lazy: () => import('./routes/channels/settings') },
];

function NotAllowed() {
  const channel = useCurrentChannel();
  return (
    <PageState
      order={1}
      color="red"
      icon={<IconLock size={28} />}
      title="You do not have access"
      description="Your role in this channel does not include this page."
      action={
        <Button component={Link} to={`/channels/${channel.id}`} variant="light">
          Back to the dashboard
        </Button>
      }
    />
  );
}

function guarded(Page: ComponentType, ability: ChannelAbility | undefined): ComponentType {
  if (ability === undefined) return Page;
  const required = ability;
  function GuardedPage() {
    const channel = useCurrentChannel();
    return can(channel.access_level, required) ? <Page /> : <NotAllowed />;
  }
  return GuardedPage;
}

/** Route objects for the children of `/channels/:channelId`; an unknown page shows 404 inside the channel's shell. */
export function channelPageRoutes(pages: ChannelPage[] = channelPages): RouteObject[] {
  const routes = pages.map((page): RouteObject => {
    const lazy = async () => ({ Component: guarded((await page.lazy()).Component, page.ability) });
    return page.path === undefined
      ? { index: true, lazy, ErrorBoundary: EmbeddedRouteError }
      : { path: page.path, lazy, ErrorBoundary: EmbeddedRouteError };
  });
  return [...routes, { path: '*', Component: EmbeddedNotFound }];
}

/** The nav entries the given channel's user may see, keyed by nav item. */
export function channelNavPages(channel: Channel, pages: ChannelPage[] = channelPages): Partial<Record<ChannelNavKey, NavPageEntry>> {
  const entries: Partial<Record<ChannelNavKey, NavPageEntry>> = {};
  for (const page of pages) {
    if (!page.nav || (page.ability !== undefined && !can(channel.access_level, page.ability))) continue;
    const Badge = page.badge;
    const base = `/channels/${channel.id}`;
    entries[page.nav] = {
      to: page.path === undefined ? base : `${base}/${page.path}`,
      exact: page.path === undefined,
      badge: Badge ? <Badge channel={channel} /> : undefined,
    };
  }
  return entries;
}
