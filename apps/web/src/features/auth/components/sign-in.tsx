import { Button, Center, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { sameOriginPath } from '@greenroom/contracts/api/common';
import { providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { Logo } from '../../../components/logo';
import { ProviderIcon } from '../../../components/provider-icon';
import { useAuthProviders } from '../../../api/get-auth-providers';
import { LocalPlatformsAlert } from './local-platforms-alert';

/** `next` if it is a path on this site, else undefined (no open redirects). */
export function safeNext(next: string | null | undefined): string | undefined {
  return next && sameOriginPath.safeParse(next).success ? next : undefined;
}

export function signInUrl(provider: string, next: string | undefined): string {
  const base = `/api/2/auth/${encodeURIComponent(provider)}/sign-in`;
  return next ? `${base}?next=${encodeURIComponent(next)}` : base;
}

/** Sign-in page: one button per sign-in provider, in its colour; keeps `next` through the flow. */
export function SignIn({ next }: { next: string | null }) {
  const list = useAuthProviders();
  const target = safeNext(next);

  return (
    <Center mih="100vh" p="md" component="main">
      <Stack w="100%" maw={400} gap="lg">
        <Center>
          <Logo />
        </Center>
        <Paper withBorder radius="lg" p="xl" shadow="md">
          <Stack gap="md">
            <div>
              <Title order={1} size="h3">
                Sign in
              </Title>
              <Text c="dimmed" size="sm" mt={4}>
                Use your streaming account. Your chat, bot and widgets follow you across platforms.
              </Text>
            </div>
            {list.isPending && (
              <Stack gap="sm" aria-busy="true" aria-label="Loading sign-in options">
                <Skeleton h={42} radius="md" />
                <Skeleton h={42} radius="md" />
                <Skeleton h={42} radius="md" />
              </Stack>
            )}
            {list.isError && <ErrorAlert error={list.error} />}
            {list.data && (
              <Stack gap="sm">
                {list.data.providers.map(({ provider, name }) => (
                  <Button
                    key={provider}
                    component="a"
                    href={signInUrl(provider, target)}
                    color={providers[provider].color}
                    size="md"
                    radius="md"
                    fullWidth
                    leftSection={<ProviderIcon provider={provider} size={20} />}
                  >
                    Sign in with {name}
                  </Button>
                ))}
              </Stack>
            )}
          </Stack>
        </Paper>
        <LocalPlatformsAlert />
      </Stack>
    </Center>
  );
}
