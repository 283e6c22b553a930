import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** What a connect flow's landing page found: a new connection, a connect that did not happen, or no flow at all. */
export type ConnectOutcome = 'connected' | 'failed' | 'nothing';

const looks: Record<ConnectOutcome, { title: string; color: string; icon: ReactNode }> = {
  connected: { title: 'Connected', color: 'green', icon: <IconCircleCheck size={32} /> },
  failed: { title: 'Not connected', color: 'yellow', icon: <IconAlertTriangle size={32} /> },
  nothing: { title: 'Nothing to connect here', color: 'gray', icon: <IconPlugConnectedX size={32} /> },
};

/**
 * The landing card of a connect flow (`/user-provider-connected`, `/channel-provider-connected`). It only says
 * "Connected" when the flow reported a new connection; opened directly it says nothing happened.
 */
export function ConnectedLanding({
  outcome = 'connected',
  text,
  icon,
  action,
}: {
  outcome?: ConnectOutcome;
  text: string;
  icon?: ReactNode;
  action?: ReactNode;
}) {
  const look = looks[outcome];
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder radius="lg" p="xl" maw={420} w="100%">
        <Stack align="center" gap="sm" ta="center" role={outcome === 'failed' ? 'alert' : undefined}>
          {icon ?? (
            <ThemeIcon size={56} radius="xl" color={look.color} variant="light" aria-hidden>
              {look.icon}
            </ThemeIcon>
          )}
          <Title order={1} size="h3">
            {look.title}
          </Title>
          <Text c="dimmed" size="sm">
            {text}
          </Text>
          {action}
        </Stack>
      </Paper>
    </Center>
  );
}
