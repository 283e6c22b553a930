import { Anchor, Breadcrumbs, Group, Paper, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconRobotOff } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { SYSTEM_BOT_HASH_KEY, systemBotProviderIds } from '@greenroom/contracts/api/system-bots';
import { providerIdSchema, providers, type ProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { ProviderIcon } from '../../../components/provider-icon';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useSystemBots } from '../api/get-system-bots';
import { connectedMessage } from '../hooks/use-connect-system-bot';
import { SystemBotActions } from './system-bot-actions';
import { SystemBotStatus } from './system-bot-status';
import { useDocumentTitle } from '../../../lib/document-title';

/** Reads `#system_bot_provider=…` left by a connect flow that ran in the whole page (popup blocked). */
function useConnectedHash() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const value = new URLSearchParams(location.hash.replace(/^#/, '')).get(SYSTEM_BOT_HASH_KEY);
    const parsed = providerIdSchema.safeParse(value);
    if (!parsed.success) return;
    notifySuccess(connectedMessage(parsed.data));
    void navigate({ pathname: location.pathname, search: location.search, hash: '' }, { replace: true });
  }, [location.hash, location.pathname, location.search, navigate]);
}

/** `/admin/system-provider-bots/{provider}`: one platform's system bot. */
export function SystemBotDetail({ provider: raw }: { provider: string }) {
  useConnectedHash();
  const bots = useSystemBots();
  const parsed = providerIdSchema.safeParse(raw);
  const provider: ProviderId | null = parsed.success && systemBotProviderIds.includes(parsed.data) ? parsed.data : null;
  useDocumentTitle(provider ? providers[provider].name : undefined);

  if (!provider) {
    return (
      <PageState
        order={1}
        icon={<IconRobotOff size={28} />}
        title="No system bot here"
        description={`"${raw}" is not a platform with a system bot.`}
        action={
          <Anchor component={Link} to="/admin/system-provider-bots">
            Back to System Provider Bots
          </Anchor>
        }
      />
    );
  }
  const info = providers[provider];
  const bot = bots.data?.find((b) => b.provider === provider);

  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={720}>
      <Breadcrumbs>
        <Anchor component={Link} to="/admin/system-provider-bots" size="sm">
          System Provider Bots
        </Anchor>
        <Text size="sm">{info.name}</Text>
      </Breadcrumbs>
      <Group gap="sm">
        <ThemeIcon color={info.color} variant="light" size={44} radius="md">
          <ProviderIcon provider={provider} size={24} />
        </ThemeIcon>
        <Title order={1} size="h2">
          {info.name} system bot
        </Title>
        {bots.isSuccess && <SystemBotStatus bot={bot} />}
      </Group>
      {bots.isError && <ErrorAlert error={bots.error} />}
      <Paper withBorder radius="md" p="md">
        {bots.isPending ? (
          <Skeleton h={80} />
        ) : (
          <Stack gap="md">
            {bot ? (
              <Table variant="vertical" layout="fixed" withTableBorder={false}>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={160}>Account</Table.Th>
                    <Table.Td>{bot.display_name}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{info.name} user id</Table.Th>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{bot.provider_user_id}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Connected</Table.Th>
                    <Table.Td>{formatDateTime(bot.connected_at)}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            ) : (
              <Text size="sm" c="dimmed">
                No {info.name} bot account is connected. Connect the account Greenroom should chat as; sign in to {info.name} as that
                account in the popup.
              </Text>
            )}
            {bot?.scope_needed && (
              <Text size="sm" c="orange.4">
                {info.name} no longer accepts this bot&apos;s grant or it lacks permissions Greenroom needs. Reconnect it.
              </Text>
            )}
            {bots.isSuccess && <SystemBotActions provider={provider} bot={bot} size="sm" />}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
