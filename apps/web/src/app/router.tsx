import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { getChannelQueryOptions } from '../api/get-channel';
import { getUserQueryOptions } from '../features/user/api/get-user';
import { getUserSettingsQueryOptions } from '../features/user/api/get-user-settings';
import { hasAccessToken } from '../lib/auth-token';
import { adminPageRoutes } from './admin-pages';
import { AppLoading } from './app-loading';
import { channelPageRoutes } from './channel-pages';
import { RouteError } from './route-error';
import { titledRoute } from './titled-route';
import { RootLayout } from './routes/root';

/**
 * The route tree for the foundation. Channel and admin pages come from their registries. Every page names
 * itself in the document title: here with `titledRoute`, in the registries with `title`; popouts through their gate.
 *
 * The signed-in layouts' loaders start the requests those layouts wait for (the account, the channel) at once, while
 * the pages' code downloads, instead of after it; they do not wait for the answers (the layouts show their own
 * loading and error states), and the queries' cache makes them free on later navigations.
 */
export function appRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: '/',
      Component: RootLayout,
      ErrorBoundary: RouteError,
      HydrateFallback: AppLoading,
      children: [
        // Public routes.
        { path: 'sign-in', lazy: titledRoute('Sign in', () => import('./routes/sign-in')) },
        { path: 'sign-in/success', lazy: titledRoute('Signed in', () => import('./routes/sign-in-success')) },
        { path: 'oauth/:provider', lazy: titledRoute('Signing in', () => import('./routes/oauth')) },
        { path: 'popout/channels/:channelId/chat', lazy: () => import('./routes/popout/public-chat') },
        { path: 'widget/:widgetId', lazy: () => import('./routes/widget') },
        { path: 'watch/:provider/:providerChannelName', lazy: () => import('./routes/watch') },
        // Signed-in routes.
        {
          loader: () => {
            if (hasAccessToken()) {
              void queryClient.prefetchQuery(getUserQueryOptions());
              void queryClient.prefetchQuery(getUserSettingsQueryOptions());
            }
            return null;
          },
          lazy: () => import('./routes/signed-in-layout'),
          children: [
            {
              lazy: () => import('./routes/home-layout'),
              children: [
                { index: true, lazy: titledRoute('Channels', () => import('./routes/channels')) },
                { path: 'channels', lazy: titledRoute('Channels', () => import('./routes/channels')) },
                { path: 'welcome', lazy: titledRoute('Welcome', () => import('./routes/welcome')) },
                { path: 'create-channel', lazy: titledRoute('Create a channel', () => import('./routes/create-channel')) },
                { path: 'channel-invite/:channelUserInviteId', lazy: titledRoute('Invitation', () => import('./routes/channel-invite')) },
              ],
            },
            {
              path: 'channels/:channelId',
              loader: ({ params }) => {
                if (hasAccessToken() && params.channelId) void queryClient.prefetchQuery(getChannelQueryOptions(params.channelId));
                return null;
              },
              lazy: () => import('./routes/channels/channel-layout'),
              children: channelPageRoutes(),
            },
            {
              path: 'channels/:channelId/register/:provider',
              lazy: titledRoute('Connect a platform', () => import('./routes/register-provider')),
            },
            { path: 'user-provider-connected', lazy: titledRoute('Connected', () => import('./routes/user-provider-connected')) },
            { path: 'channel-provider-connected', lazy: titledRoute('Connected', () => import('./routes/channel-provider-connected')) },
            { path: 'popout/channels/:channelId/activity-feed', lazy: () => import('./routes/popout/activity-feed') },
            { path: 'popout/channels/:channelId/staff-chat', lazy: () => import('./routes/popout/staff-chat') },
            { path: 'popout/channels/:channelId/viewers/:provider/:providerViewerId', lazy: () => import('./routes/popout/viewer-card') },
            { path: 'popout/channels/:channelId/giveaways/:giveawayId', lazy: () => import('./routes/popout/giveaway') },
            { path: 'admin', lazy: () => import('./routes/admin/admin-layout'), children: adminPageRoutes() },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(appRoutes(queryClient));
}

export type AppRouter = ReturnType<typeof createAppRouter>;
