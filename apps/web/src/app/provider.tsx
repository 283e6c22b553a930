import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { theme } from './theme';

// The toast container comes in its own chunk after the first render: toasts raised before it is there wait in the
// notifications store and show when it mounts.
const Toasts = lazy(() => import('./toasts').then((m) => ({ default: m.Toasts })));

/**
 * The app-wide providers: Mantine (dark only), data cache, notifications (spec §9). Modals and context menus are
 * provided to the signed-in pages only (`SignedInProviders`), so public pages do not load them.
 */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} forceColorScheme="dark" defaultColorScheme="dark">
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
