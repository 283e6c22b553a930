import { Button } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { lazy, Suspense, type ComponentType } from 'react';
import { Link, type RouteObject } from 'react-router';
import { can, type ChannelAbility } from '@greenroom/contracts/abilities';
import type { Channel } from '@greenroom/contracts/api/channels';
import type { NavPageEntry } from '../components/nav-tree';
import { PageState } from '../components/page-state';
import type { ChannelNavKey } from '../features/channel-shell/nav-outline';
import type { LazyRouteModule } from './route-module';
import { EmbeddedNotFound, EmbeddedRouteError } from './route-error';
import { withTitle } from './titled-route';
import { useCurrentChannel } from './routes/channels/use-current-channel';

/**
 * A page of the channel shell (`/channels/:channelId/...`). Register one entry per route; an entry with `nav`
 * makes the matching side-navigation item appear (items without a page stay hidden).
 */
export interface ChannelPage {
  /** Path below `/channels/:channelId`, e.g. `chat-commands` or `chat-commands/:commandId`; omit for the index (dashboard). */
  path?: string;
  /**
   * The page's name in the document title, before the channel's name: "Chat" → "Chat · Demo Stream · Greenroom".
   * A detail page names its list ("Chat Commands") and adds what it shows with `useDocumentTitle` ("!hello · Chat Commands · …").
   */
  title: string;
  /** `() => import('./routes/channels/<page>')`; the module exports `Component`. */
  lazy: LazyRouteModule;
  /** The navigation item this page backs. Only one entry per key (the list page, not its detail page). */
  nav?: ChannelNavKey;
  /** The ability (from the one ability table in contracts) that sees the nav item and may open the page. */
  ability?: ChannelAbility;
  /**
   * Badge shown on the nav item (e.g. the Platforms reconnect count). Make it `lazy(...)`: the registry is part of the
   * app's first chunk, and a badge's live data code belongs to the channel shell, not to every page.
   */
  badge?: ComponentType<{ channel: Channel }>;
}

/** The channel page registry. Later features add their pages here — nothing else is needed for route and nav. */
export const channelPages: ChannelPage[] = [
  { nav: 'dashboard', title: 'Dashboard', lazy: () => import('./routes/channels/dashboard') },
  // Editors update titles and categories there; Admins also connect and disconnect.
  {
    path: 'providers',
    nav: 'platforms',
    title: 'Platforms',
    ability: 'stream.update',
    badge: lazy(() =>
      import('../features/channel-providers/components/platforms-nav-badge').then((m) => ({ default: m.PlatformsNavBadge })),
    ),
    lazy: () => import('./routes/channels/providers'),
  },
  {
    path: 'providers/:channelProviderId',
    title: 'Platforms',
    ability: 'stream.update',
    lazy: () => import('./routes/channels/provider-detail'),
  },
  { path: 'chat', nav: 'chat', title: 'Chat', ability: 'chat.moderate', lazy: () => import('./routes/channels/chat') },
  {
    path: 'activity-feed',
    nav: 'activity-feed',
    title: 'Activity Feed',
    ability: 'activity.read',
    lazy: () => import('./routes/channels/activity-feed'),
  },
  { path: 'stats', nav: 'stats', title: 'Stats', ability: 'stats.read', lazy: () => import('./routes/channels/stats') },
  // Every member: the public watch links are for sharing.
  { path: 'watch-guide', nav: 'viewer-watch', title: 'Viewer Watch', lazy: () => import('./routes/channels/watch-guide') },
  // The chatbot: list pages carry the Chatbot group's nav items, editors are their `/{id}` pages.
  {
    path: 'chat-commands',
    nav: 'chat-commands',
    title: 'Chat Commands',
    ability: 'chatbot.manage',
    lazy: () => import('./routes/channels/chat-commands'),
  },
  {
    path: 'chat-commands/:commandId',
    title: 'Chat Commands',
    ability: 'chatbot.manage',
    lazy: () => import('./routes/channels/chat-command'),
  },
  {
    path: 'chat-timers',
    nav: 'chat-timers',
    title: 'Chat Timers',
    ability: 'chatbot.manage',
    lazy: () => import('./routes/channels/chat-timers'),
  },
  { path: 'chat-timers/:timerId', title: 'Chat Timers', ability: 'chatbot.manage', lazy: () => import('./routes/channels/chat-timer') },
  {
    path: 'chat-filters',
    nav: 'chat-filters',
    title: 'Chat Filters',
    ability: 'chatbot.manage',
    lazy: () => import('./routes/channels/chat-filters'),
  },
  { path: 'chat-filters/:filterId', title: 'Chat Filters', ability: 'chatbot.manage', lazy: () => import('./routes/channels/chat-filter') },
  { path: 'quotes', nav: 'quotes', title: 'Quotes', ability: 'chatbot.manage', lazy: () => import('./routes/channels/quotes') },
  { path: 'quotes/:channelQuoteId', title: 'Quotes', ability: 'chatbot.manage', lazy: () => import('./routes/channels/quote') },
  // Loyalty: points, slots and roulette, giveaways and the viewer queue.
  {
    path: 'gambling/point-settings',
    nav: 'gambling-points',
    title: 'Points',
    ability: 'games.manage',
    lazy: () => import('./routes/channels/point-settings'),
  },
  {
    path: 'gambling/slots-settings',
    nav: 'gambling-slots',
    title: 'Slots',
    ability: 'games.manage',
    lazy: () => import('./routes/channels/slots-settings'),
  },
  {
    path: 'gambling/roulette-settings',
    nav: 'gambling-roulette',
    title: 'Roulette Settings',
    ability: 'games.manage',
    lazy: () => import('./routes/channels/roulette-settings'),
  },
  { path: 'giveaways', nav: 'giveaways', title: 'Giveaways', ability: 'games.manage', lazy: () => import('./routes/channels/giveaways') },
  { path: 'giveaways/:giveawayId', title: 'Giveaways', ability: 'games.manage', lazy: () => import('./routes/channels/giveaway') },
  { path: 'queues', nav: 'viewer-queue', title: 'Viewer Queue', ability: 'games.manage', lazy: () => import('./routes/channels/queues') },
  { path: 'queues/:queueId', title: 'Viewer Queue', ability: 'games.manage', lazy: () => import('./routes/channels/queue') },
  // Spotify song requests: the queue (Mods skip and remove), the rules for Editors.
  {
    path: 'song-requests',
    nav: 'song-requests',
    title: 'Song Requests',
    ability: 'songs.queue',
    lazy: () => import('./routes/channels/song-requests'),
  },
  {
    path: 'widgets',
    nav: 'stream-widgets',
    title: 'Stream Widgets',
    ability: 'widgets.manage',
    lazy: () => import('./routes/channels/widgets'),
  },
  { path: 'widgets/:widgetId', title: 'Stream Widgets', ability: 'widgets.manage', lazy: () => import('./routes/channels/widget') },
  {
    path: 'user-access',
    nav: 'user-access',
    title: 'User Access',
    ability: 'staff.manage',
    lazy: () => import('./routes/channels/user-access'),
  },
  {
    path: 'settings',
    nav: 'channel-settings',
    title: 'Channel Settings',
    ability: 'channel.rename',
    lazy: () => import('./routes/channels/settings'),
  },
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
    const lazy = async () => ({ Component: withTitle(guarded((await page.lazy()).Component, page.ability), page.title) });
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
      badge: Badge ? (
        <Suspense fallback={null}>
          <Badge channel={channel} />
        </Suspense>
      ) : undefined,
    };
  }
  return entries;
}
