import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowLeft, IconMoodEmpty, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert';
import { PageState } from '../../../components/page-state';
import { isApiError } from '../../../lib/api-client';

/** The frame of every chatbot editor page: back link, title, the form in a panel, loading / not found / error states. */
export function EditorPage({
  backTo,
  backLabel,
  title,
  subtitle,
  loading,
  error,
  notFoundText,
  aside,
  children,
}: {
  backTo: string;
  backLabel: string;
  title: string;
  subtitle?: ReactNode;
  loading: boolean;
  error: unknown;
  notFoundText: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const back = (
    <Anchor component={Link} to={backTo} size="sm" c="dimmed">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {backLabel}
      </Group>
    </Anchor>
  );
  if (error && isApiError(error, 404)) {
    return (
      <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={900}>
        {back}
        <PageState order={1} icon={<IconMoodEmpty size={28} />} title={notFoundText} description="It may have been deleted." />
      </Stack>
    );
  }
  return (
    <Stack gap="md" p={{ base: 'md', sm: 'lg' }} maw={1100}>
      {back}
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        {subtitle && (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        )}
      </div>
      {error != null && <ErrorAlert error={error} />}
      {loading ? (
        <Paper withBorder radius="md" p="md" aria-busy="true" aria-label="Loading">
          <Stack gap="sm">
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={80} />
          </Stack>
        </Paper>
      ) : error == null ? (
        <Group align="flex-start" gap="md" wrap="wrap">
          <Paper withBorder radius="md" p="md" style={{ flex: '1 1 520px', minWidth: 0 }}>
            {children}
          </Paper>
          {aside && (
            <Paper withBorder radius="md" p="md" style={{ flex: '0 1 320px', minWidth: 0 }}>
              {aside}
            </Paper>
          )}
        </Group>
      ) : null}
    </Stack>
  );
}

/** A red "Delete" button that asks first. */
export function DeleteButton({ what, name, onConfirm, loading }: { what: string; name: string; onConfirm: () => void; loading?: boolean }) {
  return (
    <Button
      color="red"
      variant="subtle"
      leftSection={<IconTrash size={16} />}
      loading={loading}
      onClick={() =>
        modals.openConfirmModal({
          title: `Delete ${what}?`,
          children: (
            <Text size="sm">
              Delete <b>{name}</b>? This cannot be undone.
            </Text>
          ),
          labels: { confirm: 'Delete', cancel: 'Cancel' },
          confirmProps: { color: 'red' },
          centered: true,
          onConfirm,
        })
      }
    >
      Delete
    </Button>
  );
}
