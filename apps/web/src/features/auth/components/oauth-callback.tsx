import { Anchor, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { providerIdSchema, providers } from '@greenroom/contracts/providers';
import { ErrorAlert } from '../../../components/error-alert';
import { setAccessToken } from '../../../lib/auth-token';
import { useCompleteOauth } from '../api/complete-oauth';

function providerName(provider: string): string {
  const parsed = providerIdSchema.safeParse(provider);
  return parsed.success ? providers[parsed.data].name : provider;
}

/**
 * `/oauth/{provider}`: the platform sends the browser back here with `code` and `state` (or `error`). The page
 * posts them to the server; a sign-in answer carries the access token, a link answer only where to go next.
 */
export function OauthCallback({ provider, params }: { provider: string; params: URLSearchParams }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const complete = useCompleteOauth();
  const started = useRef(false);
  const state = params.get('state');
  const code = params.get('code') ?? undefined;
  const error = params.get('error') ?? undefined;
  const errorDescription = params.get('error_description') ?? undefined;

  useEffect(() => {
    if (started.current || !state) return;
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
  }, [complete, provider, state, code, error, errorDescription, navigate, queryClient]);

  const failed = complete.isError || !state;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder radius="lg" p="xl" maw={440} w="100%">
        {failed ? (
          <Stack gap="md">
            <Title order={1} size="h4">
              {providerName(provider)} authorization failed
            </Title>
            <ErrorAlert
              error={complete.error}
              message={state ? null : 'The platform did not send the expected answer. Please start again.'}
            />
            <Anchor component={Link} to="/sign-in">
              Back to sign in
            </Anchor>
          </Stack>
        ) : (
          <Stack align="center" gap="sm" role="status" aria-live="polite">
            <Loader />
            <Text>Finishing {providerName(provider)} sign-in…</Text>
          </Stack>
        )}
      </Paper>
    </Center>
  );
}
