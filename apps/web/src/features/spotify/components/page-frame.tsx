import { Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../components/error-alert';

/** The song request page's frame: title and description, then loading / error / the content. */
export function PageFrame({
  title,
  description,
  loading,
  error,
  children,
}: {
  title: string;
  description: ReactNode;
  loading: boolean;
  error: unknown;
  children: ReactNode;
}) {
  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1100}>
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      </div>
      {error != null && <ErrorAlert error={error} />}
      {loading ? (
        <Paper withBorder radius="md" p="md" aria-busy="true" aria-label="Loading">
          <Stack gap="sm">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} h={32} />
            ))}
          </Stack>
        </Paper>
      ) : error == null ? (
        children
      ) : null}
    </Stack>
  );
}

/** A titled panel of the page. */
export function Section({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Title order={2} size="h4">
              {title}
            </Title>
            {description && (
              <Text size="sm" c="dimmed">
                {description}
              </Text>
            )}
          </div>
          {actions}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
