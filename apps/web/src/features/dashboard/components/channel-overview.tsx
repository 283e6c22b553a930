import {
  ActionIcon,
  Anchor,
  Badge,
  CopyButton,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink, IconLock, IconPlugOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { Channel } from '@greenroom/contracts/api/channels';
import { AccessLevel, accessLevelLabels, hasLevel } from '@greenroom/contracts/access';
import { Link } from 'react-router';
import { dashboardUrl, providers } from '@greenroom/contracts/providers';
import { ProviderIcon } from '../../../components/provider-icon';
import { RoleBadge } from '../../../components/role-badge';
import { formatDate, formatDateTime, relativeTime } from '../../../lib/format';
import { abilitiesOf, missingAbilities } from '../role-permissions';
import { LeaveChannelButton } from './leave-channel-button';

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
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

/** The channel dashboard (index page of the shell): who the channel is, your role, its platforms. */
export function ChannelOverview({ channel }: { channel: Channel }) {
  const abilities = abilitiesOf(channel.access_level);
  const missing = missingAbilities(channel.access_level);

  return (
    <Stack gap="lg" p={{ base: 'md', sm: 'lg' }} maw={1100}>
      <div>
        <Group gap="sm" align="center">
          <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>
            {channel.display_name}
          </Title>
          <RoleBadge level={channel.access_level} />
        </Group>
        <Text c="dimmed" size="sm">
          Created {formatDate(channel.created_at)}
        </Text>
      </div>

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" style={{ alignItems: 'start' }}>
        <Stack gap="md">
          <Section
            title="Platforms"
            action={
              hasLevel(channel.access_level, AccessLevel.EDITOR) && (
                <Anchor component={Link} to={`/channels/${channel.id}/providers`} size="xs">
                  {channel.providers.length === 0 && hasLevel(channel.access_level, AccessLevel.ADMIN)
                    ? 'Connect a platform'
                    : 'Open Platforms'}
                </Anchor>
              )
            }
          >
            {channel.providers.length === 0 ? (
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" color="orange" size={36} radius="md" aria-hidden>
                  <IconPlugOff size={20} />
                </ThemeIcon>
                <div>
                  <Text fw={500}>No platform connected yet</Text>
                  <Text size="sm" c="dimmed">
                    Connect Twitch, YouTube, Kick, TikTok or Spotify to bring their chat and streams into this channel.
                  </Text>
                </div>
              </Group>
            ) : (
              <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {channel.providers.map((p) => {
                  const info = providers[p.provider];
                  const url = dashboardUrl(p.provider, p.provider_channel_name);
                  return (
                    <Group key={`${p.provider}:${p.provider_channel_name}`} component="li" justify="space-between" wrap="nowrap" gap="sm">
                      <Group gap="sm" wrap="nowrap" miw={0}>
                        <ThemeIcon color={info.color} variant="light" size={32} radius="md">
                          <ProviderIcon provider={p.provider} size={18} />
                        </ThemeIcon>
                        <div style={{ minWidth: 0 }}>
                          <Text size="sm" fw={500} truncate>
                            {p.provider_channel_name}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {info.name}
                          </Text>
                        </div>
                      </Group>
                      {url && (
                        <Anchor
                          href={url}
                          target="_blank"
                          rel="noopener noreferrer"
                          size="xs"
                          aria-label={`${info.name} dashboard of ${p.provider_channel_name}`}
                        >
                          <Group gap={4} wrap="nowrap">
                            {info.name} dashboard <IconExternalLink size={12} aria-hidden />
                          </Group>
                        </Anchor>
                      )}
                    </Group>
                  );
                })}
              </Stack>
            )}
          </Section>

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
        </Stack>
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
      </SimpleGrid>
    </Stack>
  );
}
