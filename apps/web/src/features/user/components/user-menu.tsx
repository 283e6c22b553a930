import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { IconChevronDown, IconLogout, IconSettings, IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useUser } from '../api/get-user';
import { useSignOut } from '../api/sign-out';

// The settings dialog loads the first time it opens, then stays mounted (its closing transition plays).
const SettingsModal = lazy(() => import('./settings-modal').then((m) => ({ default: m.SettingsModal })));

/** User menu: avatar with the display name; Settings (modal) and Sign out. Operators also get Admin. */
export function UserMenu() {
  const user = useUser();
  const signOut = useSignOut();
  const [settingsOpened, settings] = useDisclosure(false);
  const [settingsLoaded, setSettingsLoaded] = useState(false);
  if (settingsOpened && !settingsLoaded) setSettingsLoaded(true);
  if (!user.data) return null;
  const { display_name: name, avatar_url: avatarUrl, is_operator: isOperator } = user.data;

  return (
    <>
      <Menu position="bottom-end" width={200} shadow="md" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={`User menu: ${name}`} style={{ borderRadius: 999 }} p={4} pr={8}>
            <Group gap={8} wrap="nowrap">
              <Avatar src={avatarUrl} alt="" size={28} radius="xl" color="teal">
                {name.slice(0, 1).toUpperCase()}
              </Avatar>
              <Text size="sm" fw={500} maw={160} truncate visibleFrom="sm">
                {name}
              </Text>
              <IconChevronDown size={14} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label hiddenFrom="sm">{name}</Menu.Label>
          <Menu.Item leftSection={<IconSettings size={16} aria-hidden />} onClick={settings.open}>
            Settings
          </Menu.Item>
          {isOperator && (
            <Menu.Item leftSection={<IconShieldLock size={16} aria-hidden />} component={Link} to="/admin">
              Admin
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {settingsLoaded && (
        <Suspense fallback={null}>
          <SettingsModal opened={settingsOpened} onClose={settings.close} />
        </Suspense>
      )}
    </>
  );
}
