import { AppShell, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from './logo';
import { SHELL_FRAMES } from './shell-frames';

/** A header-only page frame (channel list, welcome, create channel): logo on the left, `headerRight` on the right. */
export function SimpleShell({ headerRight, children }: { headerRight?: ReactNode; children: ReactNode }) {
  return (
    <AppShell header={{ height: SHELL_FRAMES.home.headerHeight }} padding={0}>
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Logo />
          <Group gap="sm" wrap="nowrap">
            {headerRight}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
