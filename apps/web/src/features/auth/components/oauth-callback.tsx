import { Anchor, Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { CONNECT_ERROR_HASH_KEY } from '@greenroom/contracts/api/user';
import { providerIdSchema, providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { setAccessToken } from '../../../lib/auth-token';
import { errorMessage } from '../../../lib/error-message';
import { useCompleteOauth } from '../api/complete-oauth';

/** The platforms Greenroom signs in or connects through (the OAuth callback routes of the server). */
const oauthProviders = new Set(['twitch', 'youtube', 'kick', 'tiktok', 'spotify', 'discord']);

function providerName(provider: string): string | null {
  const parsed = providerIdSchema.safeParse(provider);
  return parsed.success && oauthProviders.has(parsed.data) ? providers[parsed.data].name : null;
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder radius="lg" p="xl" maw={440} w="100%">
        <Stack gap="md">
          <Title order={1} size="h4">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/**
 * `/oauth/{provider}`: the platform sends the browser back here with `code` and `state` (or `error`). The page
 * posts them to the server; a sign-in answer carries the access token, a connect answer where to go next (the
 * landing page, which says whether it connected). In a connect popup a failure is handed to the window that
 * opened it (`#connect_error`), and the page offers to close the window rather than a way to sign in.
 */
export function OauthCallback({ provider, params }: { provider: string; params: URLSearchParams }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const complete = useCompleteOauth();
  const started = useRef(false);
  const name = providerName(provider);
  const inPopup = typeof window !== 'undefined' && window.opener != null;
  const state = params.get('state');
  const code = params.get('code') ?? undefined;
  const error = params.get('error') ?? undefined;
  const errorDescription = params.get('error_description') ?? undefined;

  useEffect(() => {
    if (started.current || !state || !name) return;
    started.current = true; // the code is single-use: never post it twice (StrictMode runs effects twice)
    complete.mutate(
      { provider, body: { code, state, error, error_description: errorDescription } },
      {
        onSuccess: (result) => {
          if (result.access_token) {
            setAccessToken(result.access_token, result.expires_at);
            queryClient.clear();
          }
          void navigate(result.redirect_to, { replace: true });
        },
      },
    );
  }, [complete, provider, name, state, code, error, errorDescription, navigate, queryClient]);

  const failure = !name
    ? `“${provider}” is not a platform Greenroom connects to. Start again from Greenroom.`
    : !state
      ? 'The platform did not send the expected answer. Please start again.'
      : complete.isError
        ? errorMessage(complete.error)
        : null;

  // A connect popup hands its failure to the window that opened it, which closes it and says why.
  useEffect(() => {
    if (failure !== null && inPopup) window.location.hash = `${CONNECT_ERROR_HASH_KEY}=${encodeURIComponent(failure)}`;
  }, [failure, inPopup]);

  if (failure !== null) {
    return (
      <Card title={name ? `${name} did not connect` : 'Unknown platform'}>
        <ErrorAlert error={null} message={failure} />
        {inPopup ? (
          <Button variant="default" onClick={() => window.close()}>
            Close this window
          </Button>
        ) : (
          <Anchor component={Link} to={name ? '/sign-in' : '/'}>
            {name ? 'Back to sign in' : 'Back to Greenroom'}
          </Anchor>
        )}
      </Card>
    );
  }
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder radius="lg" p="xl" maw={440} w="100%">
        <Stack align="center" gap="sm" role="status" aria-live="polite">
          <Loader />
          <Text>Finishing with {name}…</Text>
        </Stack>
      </Paper>
    </Center>
  );
}
