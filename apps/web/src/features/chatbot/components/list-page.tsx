import { Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from '../../../components/error-alert';

/** The frame of every chatbot list page: title and description, actions, then loading / error / empty / the list. */
export function ListPage({
  title,
  description,
  actions,
  loading,
  error,
  empty,
  children,
}: {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
  loading: boolean;
  error: unknown;
  /** Shown instead of the list when there is nothing yet. */
  empty: ReactNode | null;
  children: ReactNode;
}) {
  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1200}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </div>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
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
        (empty ?? children)
      ) : null}
    </Stack>
  );
}
