import { createBrowserRouter, type RouteObject } from 'react-router';
import { FullHeightLoader } from '../components/full-height-loader';
import { adminPageRoutes } from './admin-pages';
import { channelPageRoutes } from './channel-pages';
import { RouteError } from './route-error';
import { titledRoute } from './titled-route';
import { RootLayout } from './routes/root';

/**
 * The route tree for the foundation. Channel and admin pages come from their registries. Every page names
 * itself in the document title: here with `titledRoute`, in the registries with `title`; popouts through their gate.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: FullHeightLoader,
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
          { path: 'channels/:channelId', lazy: () => import('./routes/channels/channel-layout'), children: channelPageRoutes() },
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

export function createAppRouter() {
  return createBrowserRouter(routes);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
