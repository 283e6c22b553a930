import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DEFAULT_TOAST_MS, MAX_TOASTS } from '../lib/notify';
import { theme } from './theme';

/** Every app-wide provider: Mantine (dark only), data cache, modals, notifications. */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} forceColorScheme="dark" defaultColorScheme="dark">
      <Notifications position="bottom-right" limit={MAX_TOASTS} autoClose={DEFAULT_TOAST_MS} />
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>{children}</ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
