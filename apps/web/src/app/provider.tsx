import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ContextMenuProvider } from 'mantine-contextmenu';
import type { ReactNode } from 'react';
import { DEFAULT_TOAST_MS, MAX_TOASTS } from '../lib/notify';
import { theme } from './theme';

/** Context menu submenu delay. */
export const CONTEXT_MENU_SUBMENU_DELAY_MS = 500;

/** Every app-wide provider: Mantine (dark only), data cache, modals, context menus, notifications. */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} forceColorScheme="dark" defaultColorScheme="dark">
      <Notifications position="bottom-right" limit={MAX_TOASTS} autoClose={DEFAULT_TOAST_MS} />
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <ContextMenuProvider submenuDelay={CONTEXT_MENU_SUBMENU_DELAY_MS}>{children}</ContextMenuProvider>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
