import { Badge, Button, Group, Paper, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { confirmDisconnect } from '../../../components/confirm-disconnect';
import type { UserProvider } from '@greenroom/contracts/api/user';
import { providers, signinProviderIds, type SigninProviderId } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { ProviderIcon } from '../../../components/provider-icon';
import { useDeleteUserProvider } from '../api/delete-user-provider';
import { useUserProviders } from '../api/get-user-providers';
import { useConnectProvider } from '../hooks/use-connect-provider';

export const LAST_SIGN_IN_HINT = 'Your only way to sign in: connect another platform before disconnecting this one.';

/** Connections list: only sign-in providers; Connect, or the display name with Disconnect. */
export function ConnectionsList() {
  const list = useUserProviders();
  const { connect, pending } = useConnectProvider();
  const remove = useDeleteUserProvider();

  if (list.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading connections">
        {signinProviderIds.map((id) => (
          <Skeleton key={id} h={58} radius="md" />
        ))}
      </Stack>
    );
  }
  if (list.isError) return <ErrorAlert error={list.error} />;

  const askDisconnect = (connection: UserProvider) =>
    confirmDisconnect(providers[connection.provider].name, () => remove.mutate(connection.id));
  // The server refuses to remove the last way to sign in: say so before anyone clicks.
  const signInConnections = list.data.filter((item) => providers[item.provider].signinProvider);
  const onlySignIn = signInConnections.length <= 1;

  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {signinProviderIds.map((provider: SigninProviderId) => {
        const info = providers[provider];
        const connections = list.data.filter((item) => item.provider === provider);
        return (
          <Paper component="li" key={provider} withBorder radius="md" p="sm" aria-label={info.name}>
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Group gap="sm" wrap="nowrap" miw={0}>
                <ThemeIcon color={info.color} variant="light" size={36} radius="md">
                  <ProviderIcon provider={provider} size={20} />
                </ThemeIcon>
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} size="sm">
                    {info.name}
                  </Text>
                  {connections.length === 0 ? (
                    <Text size="xs" c="dimmed">
                      Not connected
                    </Text>
                  ) : (
                    connections.map((connection) => (
                      <Group key={connection.id} gap={6} wrap="wrap">
                        <Text size="xs" c="dimmed" truncate>
                          {connection.display_name}
                        </Text>
                        {onlySignIn && (
                          <Text size="xs" c="dimmed" id={`last-sign-in-${connection.id}`}>
                            {LAST_SIGN_IN_HINT}
                          </Text>
                        )}
                        {connection.scope_needed && (
                          <Badge color="orange" size="xs" variant="light">
                            Reconnect needed
                          </Badge>
                        )}
                      </Group>
                    ))
                  )}
                </div>
              </Group>
              <Stack gap={6} align="flex-end">
                {connections.length === 0 && (
                  <Button size="xs" color={info.color} loading={pending === provider} onClick={() => void connect(provider)}>
                    Connect
                  </Button>
                )}
                {connections.map((connection) => (
                  <Group key={connection.id} gap={6} wrap="nowrap">
                    {connection.scope_needed && (
                      <Button
                        size="xs"
                        variant="light"
                        color="orange"
                        loading={pending === provider}
                        onClick={() => void connect(provider)}
                      >
                        Reconnect
                      </Button>
                    )}
                    {onlySignIn ? (
                      <Button size="xs" variant="default" disabled aria-describedby={`last-sign-in-${connection.id}`}>
                        Disconnect
                      </Button>
                    ) : (
                      <Button
                        size="xs"
                        variant="default"
                        loading={remove.isPending && remove.variables === connection.id}
                        onClick={() => askDisconnect(connection)}
                      >
                        Disconnect
                      </Button>
                    )}
                  </Group>
                ))}
              </Stack>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
