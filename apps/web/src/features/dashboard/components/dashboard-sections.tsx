import { ActionIcon, Badge, CopyButton, Group, List, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { Channel } from '@greenroom/contracts/api/channels';
import { AccessLevel, accessLevelLabels } from '@greenroom/contracts/access';
import { formatDate, formatDateTime, relativeTime } from '../../../lib/format';
import { abilitiesOf, missingAbilities } from '../role-permissions';
import { LeaveChannelButton } from './leave-channel-button';

/** A titled panel of the dashboard. */
export function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h5">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

/** Name, id (copyable), creation date and number of platforms. */
export function ChannelDetailsSection({ channel }: { channel: Channel }) {
  return (
    <Section title="Channel details">
      <Stack gap={8}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            Name
          </Text>
          <Text size="sm" truncate>
            {channel.display_name}
          </Text>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
            Channel ID
          </Text>
          <Group gap={4} wrap="nowrap" miw={0}>
            <Text size="sm" ff="monospace" truncate>
              {channel.id}
            </Text>
            <CopyButton value={channel.id} timeout={1500}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy channel ID'} withArrow>
                  <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} size="sm" onClick={copy} aria-label="Copy channel ID">
                    {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            Created
          </Text>
          <Text size="sm">
            {formatDate(channel.created_at)}{' '}
            <Text span c="dimmed" size="xs" component="time" dateTime={channel.created_at} title={formatDateTime(channel.created_at)}>
              ({relativeTime(channel.created_at)})
            </Text>
          </Text>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed">
            Platforms
          </Text>
          <Badge variant="light" color={channel.providers.length ? 'teal' : 'orange'}>
            {channel.providers.length} connected
          </Badge>
        </Group>
      </Stack>
    </Section>
  );
}

/** What the caller's role may do here (and what it may not), and leaving the channel. */
export function YourAccessSection({ channel }: { channel: Channel }) {
  const abilities = abilitiesOf(channel.access_level);
  const missing = missingAbilities(channel.access_level);
  return (
    <Section title="Your access">
      <Text size="sm" mb="xs">
        You are <b>{accessLevelLabels[channel.access_level]}</b> in this channel.
      </Text>
      {abilities.length === 0 ? (
        <Text size="sm" c="dimmed">
          You can view this channel. Ask its owner for a staff role to help run it.
        </Text>
      ) : (
        <List
          size="sm"
          spacing={6}
          lh={1.45}
          icon={<IconCheck size={14} color="var(--mantine-color-teal-5)" aria-hidden style={{ marginTop: 3 }} />}
        >
          {abilities.map((ability) => (
            <List.Item key={ability}>{ability}</List.Item>
          ))}
        </List>
      )}
      {missing.length > 0 && (
        <List
          size="sm"
          spacing={6}
          lh={1.45}
          mt="xs"
          c="dimmed"
          icon={<IconLock size={14} aria-hidden style={{ marginTop: 3 }} />}
          aria-label="Not allowed for your role"
        >
          {missing.map((ability) => (
            <List.Item key={ability}>{ability}</List.Item>
          ))}
        </List>
      )}
      {channel.access_level < AccessLevel.OWNER && <LeaveChannelButton channel={channel} />}
    </Section>
  );
}
