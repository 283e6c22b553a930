import { Anchor, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { systemBotProviderIds } from '@greenroom/contracts/api/system-bots';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { ProviderIcon } from '../../../components/provider-icon';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { useSystemBots } from '../api/get-system-bots';
import { SystemBotActions } from './system-bot-actions';
import { SystemBotStatus } from './system-bot-status';

/** `/admin/system-provider-bots`: the shared bot account of every platform that has one. */
export function SystemBotsList() {
  const bots = useSystemBots();

  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={900}>
      <div>
        <Title order={1} size="h2">
          System Provider Bots
        </Title>
        <Text c="dimmed" size="sm">
          The bot account Greenroom uses in chat on each platform for channels that have not connected their own bot.
        </Text>
      </div>
      {bots.isError && <ErrorAlert error={bots.error} />}
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="System bots">
        {systemBotProviderIds.map((provider) => {
          const info = providers[provider];
          const bot = bots.data?.find((b) => b.provider === provider);
          return (
            <Paper component="li" key={provider} withBorder radius="md" p="md" aria-label={`${info.name} system bot`}>
              <Group justify="space-between" gap="sm">
                <Group gap="sm" wrap="nowrap" miw={0}>
                  <ThemeIcon color={info.color} variant="light" size={40} radius="md">
                    <ProviderIcon provider={provider} size={22} />
                  </ThemeIcon>
                  <div style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Anchor component={Link} to={provider} fw={600} size="sm">
                        {info.name}
                      </Anchor>
                      {bots.isSuccess && <SystemBotStatus bot={bot} />}
                    </Group>
                    {bots.isPending ? (
                      <Skeleton h={14} w={140} mt={4} />
                    ) : (
                      <Text size="xs" c="dimmed" truncate>
                        {bot ? (
                          <>
                            {bot.display_name} · connected{' '}
                            <time dateTime={bot.connected_at} title={formatDateTime(bot.connected_at)}>
                              {relativeTime(bot.connected_at)}
                            </time>
                          </>
                        ) : (
                          'No bot account connected'
                        )}
                      </Text>
                    )}
                  </div>
                </Group>
                {bots.isSuccess && <SystemBotActions provider={provider} bot={bot} />}
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </Stack>
  );
}
