import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState, type MouseEvent } from 'react';
import { isRouteErrorResponse, Link, useNavigate, useRouteError } from 'react-router';
import { ErrorAlert } from '../components/error-alert';
import { FullHeightLoader } from '../components/full-height-loader';
import { isChunkLoadError, reloadForStaleChunk } from '../lib/stale-chunk';
import { useDocumentTitle } from '../lib/document-title';

/** "Go back": one step back in history when there is one inside the app, else to /. */
function GoBack() {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent) => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) {
      event.preventDefault();
      void navigate(-1);
    }
  };
  return (
    <Button component={Link} to="/" onClick={onClick} variant="light">
      Go back
    </Button>
  );
}

/** Status and status text with "Go back" (spec §2: unknown routes). */
function StatusView({ status, statusText, embedded }: { status: number; statusText: string; embedded: boolean }) {
  return (
    <Center mih={embedded ? 360 : '100vh'} p="md" component={embedded ? 'div' : 'main'}>
      <Stack align="center" gap="xs" ta="center">
        <Title order={1} fz={72} lh={1} c="dark.2">
          {status}
        </Title>
        <Text size="lg" fw={500}>
          {statusText || 'Error'}
        </Text>
        <GoBack />
      </Stack>
    </Center>
  );
}

/** An unknown page inside a shell (a channel's or the admin area's): the 404 view, the shell and its navigation stay. */
export function EmbeddedNotFound() {
  useDocumentTitle('404 Not Found');
  return <StatusView status={404} statusText="Not Found" embedded />;
}

/**
 * Route error element: unknown routes and other error responses show status, status text and
 * "Go back"; other errors a generic error view. A stale-chunk error reloads the page (at most once per 30 s).
 */
export function RouteError({ embedded = false }: { embedded?: boolean }) {
  const error = useRouteError();
  const stale = isChunkLoadError(error);
  const [reloading, setReloading] = useState(stale);
  useDocumentTitle(
    isRouteErrorResponse(error) ? [String(error.status), error.statusText].filter(Boolean).join(' ') : 'Something went wrong',
  );

  useEffect(() => {
    if (stale) setReloading(reloadForStaleChunk(error));
  }, [stale, error]);

  if (reloading) return <FullHeightLoader label="Updating Greenroom" />;

  if (isRouteErrorResponse(error)) return <StatusView status={error.status} statusText={error.statusText} embedded={embedded} />;

  return (
    <Center mih={embedded ? 360 : '100vh'} p="md" component={embedded ? 'div' : 'main'}>
      <Paper withBorder radius="lg" p="xl" maw={520} w="100%">
        <Stack gap="md">
          <Title order={1} size="h3">
            Something went wrong
          </Title>
          <Text c="dimmed" size="sm">
            This page could not be shown. Reloading usually helps; if it keeps happening, please tell us what you were doing.
          </Text>
          <ErrorAlert error={error} />
          <Stack gap="xs" align="flex-start">
            <Button leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => window.location.reload()}>
              Reload
            </Button>
            <GoBack />
          </Stack>
        </Stack>
      </Paper>
    </Center>
  );
}

/** The same view inside a shell (a channel or admin page failed; the shell stays). */
export function EmbeddedRouteError() {
  return <RouteError embedded />;
}
