import { Button, Center, Group, Paper, Stack, Title } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorAlert } from '../../components/error-alert';
import { signInPathFor } from '../../lib/api-client';
import { clearAccessToken, hasAccessToken } from '../../lib/auth-token';
import { useQuery } from '@tanstack/react-query';
import { getUserQueryOptions } from '../../features/user/api/get-user';
import { getUserSettingsQueryOptions } from '../../features/user/api/get-user-settings';
import { AppLoading } from '../app-loading';
import { SignedInProviders } from '../signed-in-providers';

/**
 * Every signed-in route sits below this layout: without a token it sends the browser to
 * /sign-in (with `next` unless at /); it loads the user and their settings once, with an error view on failure.
 * It provides modals and context menus to every signed-in page.
 */
export function Component() {
  const location = useLocation();
  const signedIn = hasAccessToken();
  const user = useQuery({ ...getUserQueryOptions(), enabled: signedIn });
  const settings = useQuery({ ...getUserSettingsQueryOptions(), enabled: signedIn });

  if (!signedIn) return <Navigate to={signInPathFor(location)} replace />;
  if (user.isError || settings.isError) {
    return (
      <Center mih="100vh" p="md" component="main">
        <Paper withBorder radius="lg" p="xl" maw={480} w="100%">
          <Stack gap="md">
            <Title order={1} size="h3">
              Greenroom could not load your account
            </Title>
            <ErrorAlert error={user.error ?? settings.error} />
            <Group gap="sm">
              <Button onClick={() => window.location.reload()}>Try again</Button>
              <Button
                variant="default"
                onClick={() => {
                  clearAccessToken();
                  window.location.assign('/sign-in');
                }}
              >
                Sign in again
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Center>
    );
  }
  if (user.isPending || settings.isPending) return <AppLoading label="Loading your account" />;
  return (
    <SignedInProviders>
      <Outlet />
    </SignedInProviders>
  );
}
