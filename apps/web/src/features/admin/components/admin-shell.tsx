import { AppShell, Badge, Burger, Group, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Logo } from '../../../components/logo';
import { NavTree, type NavTreeItem } from '../../../components/nav-tree';
import { SHELL_FRAMES } from '../../../components/shell-frames';

/** `/admin` layout: header 50 px, navbar 250 px collapsing on mobile (breakpoint md). */
export function AdminShell({ navItems, headerRight, children }: { navItems: NavTreeItem[]; headerRight?: ReactNode; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  useEffect(() => close(), [pathname, close]);

  return (
    <AppShell
      header={{ height: SHELL_FRAMES.admin.headerHeight }}
      navbar={{ width: SHELL_FRAMES.admin.navbarWidth, breakpoint: 'md', collapsed: { mobile: !opened, desktop: navItems.length === 0 } }}
      padding={0}
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {navItems.length > 0 && (
              <Burger opened={opened} onClick={toggle} hiddenFrom="md" size="sm" aria-label="Toggle navigation" aria-expanded={opened} />
            )}
            <Logo textVisibleFrom="sm" />
            <Badge color="red" variant="light">
              Admin
            </Badge>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {headerRight}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <AppShell.Section grow component={ScrollArea} scrollbarSize={6}>
          <NavTree items={navItems} label="Admin" />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
