import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from './error-alert';

/** The frame of a channel page: title and description, actions, then loading / error / the content. */
export function PageFrame({
  title,
  description,
  actions,
  loading,
  error,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  actions?: ReactNode;
  loading: boolean;
  error: unknown;
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
      {loading ? <LoadingPanel /> : error == null ? children : null}
    </Stack>
  );
}

export function LoadingPanel({ rows = 4 }: { rows?: number }) {
  return (
    <Paper withBorder radius="md" p="md" aria-busy="true" aria-label="Loading">
      <Stack gap="sm">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} h={32} />
        ))}
      </Stack>
    </Paper>
  );
}

/** A titled panel of a page. */
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

/** A page's form in a "Settings" panel beside a side panel (the odds of a game …); one column on narrow screens. */
export function FormWithAside({ children, aside }: { children: ReactNode; aside: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md" verticalSpacing="md">
      <div style={{ gridColumn: 'span 2', minWidth: 0 }}>
        <Section title="Settings">{children}</Section>
      </div>
      <div>{aside}</div>
    </SimpleGrid>
  );
}
