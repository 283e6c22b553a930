import { Button, Group, Menu } from '@mantine/core';
import { IconBan, IconChevronDown, IconCircleCheck, IconClock } from '@tabler/icons-react';
import { providers, timeoutProblem } from '@greenroom/contracts/providers';
import type { ModerationTarget } from '../api/ban-viewer';
import { useModeration } from '../hooks/use-moderation';
import { openBanModal, openTimeoutModal, TIMEOUT_PRESETS } from '../hooks/use-moderation-menu';

/** Timeout presets, ban and unban for one viewer (viewer card), limited to what the platform supports. */
export function ViewerModerationActions({ target, banned, onDone }: { target: ModerationTarget; banned: boolean; onDone: () => void }) {
  const moderation = useModeration(onDone);
  const info = providers[target.provider];
  if (!info.ban && !info.unban) return null;
  return (
    <Group gap="xs" aria-label="Moderation">
      {info.ban && (
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button
              size="xs"
              variant="light"
              color="orange"
              leftSection={<IconClock size={14} />}
              rightSection={<IconChevronDown size={12} />}
              loading={moderation.isPending}
            >
              Timeout
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {TIMEOUT_PRESETS.filter((p) => timeoutProblem(target.provider, p.seconds) === null).map((preset) => (
              <Menu.Item key={preset.seconds} onClick={() => void moderation.timeout(target, preset.seconds)}>
                {preset.label}
              </Menu.Item>
            ))}
            <Menu.Item onClick={() => openTimeoutModal(target, moderation)}>Custom…</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      {info.ban && !banned && (
        <Button size="xs" variant="light" color="red" leftSection={<IconBan size={14} />} onClick={() => openBanModal(target, moderation)}>
          Ban
        </Button>
      )}
      {info.unban && (
        <Button
          size="xs"
          variant="light"
          color="green"
          leftSection={<IconCircleCheck size={14} />}
          onClick={() => void moderation.unban(target)}
        >
          Unban
        </Button>
      )}
    </Group>
  );
}
