import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The landing card of a connect flow (`/user-provider-connected`, `/channel-provider-connected`). */
export function ConnectedLanding({ text, icon, action }: { text: string; icon?: ReactNode; action?: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="lg" p="xl" maw={420} w="100%">
        <Stack align="center" gap="sm" ta="center">
          {icon ?? (
            <ThemeIcon size={56} radius="xl" color="green" variant="light" aria-hidden>
              <IconCircleCheck size={32} />
            </ThemeIcon>
          )}
          <Title order={1} size="h3">
            Connected
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
