import { ActionIcon, AppShell, Burger, Button, Group, ScrollArea, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Logo } from '../../../components/logo';
import { NavTree, type NavTreeItem } from '../../../components/nav-tree';
import { CHANNEL_NAVBAR_STORAGE_KEY, SHELL_FRAMES } from '../../../components/shell-frames';
import { useNavbarState } from '../hooks/use-navbar-state';

interface ChannelShellProps {
  /** Undefined while the channel loads. */
  channelName?: string;
  onOpenPicker: () => void;
  navItems: NavTreeItem[];
  navLoading?: boolean;
  headerRight?: ReactNode;
  children: ReactNode;
}

/** `/channels/{channelId}` layout: header 45 px, navbar 250 px hideable on desktop, collapsing on mobile. */
export function ChannelShell({ channelName, onOpenPicker, navItems, navLoading = false, headerRight, children }: ChannelShellProps) {
  const navbar = useNavbarState(CHANNEL_NAVBAR_STORAGE_KEY);
  // No navigation at all (e.g. "Channel not found"): no navbar and no toggles.
  const hasNav = navLoading || navItems.length > 0;

  return (
    <AppShell
      header={{ height: SHELL_FRAMES.channel.headerHeight }}
      navbar={{
        width: SHELL_FRAMES.channel.navbarWidth,
        breakpoint: 'md',
        collapsed: { mobile: !hasNav || !navbar.mobileOpened, desktop: !hasNav || !navbar.desktopOpened },
      }}
      padding={0}
    >
      <AppShell.Header px="sm">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" miw={0}>
            {hasNav && (
              <Burger
                opened={navbar.mobileOpened}
                onClick={navbar.toggleMobile}
                hiddenFrom="md"
                size="sm"
                aria-label="Toggle navigation"
                aria-expanded={navbar.mobileOpened}
              />
            )}
            {hasNav && (
              <Tooltip label={navbar.desktopOpened ? 'Hide navigation' : 'Show navigation'} openDelay={400}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  onClick={navbar.toggleDesktop}
                  visibleFrom="md"
                  aria-label={navbar.desktopOpened ? 'Hide navigation' : 'Show navigation'}
                  aria-expanded={navbar.desktopOpened}
                >
                  {navbar.desktopOpened ? (
                    <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} />
                  ) : (
                    <IconLayoutSidebarLeftExpand size={20} stroke={1.6} />
                  )}
                </ActionIcon>
              </Tooltip>
            )}
            <Logo textVisibleFrom="sm" />
            <Text c="dark.3" aria-hidden visibleFrom="sm">
              /
            </Text>
            {channelName === undefined ? (
              <Skeleton h={24} w={120} radius="sm" />
            ) : (
              <Button
                variant="subtle"
                color="gray"
                size="compact-md"
                onClick={onOpenPicker}
                rightSection={<IconSelector size={14} aria-hidden />}
                aria-label={channelName ? `${channelName} (current channel). Pick a channel` : 'Pick a channel'}
                aria-haspopup="dialog"
                styles={{ root: { minWidth: 0, maxWidth: 280 }, label: { overflow: 'hidden', textOverflow: 'ellipsis' } }}
              >
                {channelName}
              </Button>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap">
            {headerRight}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <AppShell.Section grow component={ScrollArea} scrollbarSize={6}>
          {navLoading ? (
            <Stack gap={6} aria-busy="true" aria-label="Loading navigation">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} h={32} radius="sm" />
              ))}
            </Stack>
          ) : (
            <NavTree items={navItems} label="Channel" />
          )}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
