import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconCircleCheck } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { getUserProvidersQueryOptions } from '../api/get-user-providers';

/**
 * Landing page of the connect popup (spec §2). In a popup the opener reads the hash and closes it; opened
 * directly (popup blocked, the whole page went through the flow) it confirms and links back to /.
 */
export function ProviderConnected() {
  const queryClient = useQueryClient();
  const inPopup = typeof window !== 'undefined' && window.opener != null;

  useEffect(() => {
    if (!inPopup) void queryClient.invalidateQueries({ queryKey: getUserProvidersQueryOptions().queryKey });
  }, [inPopup, queryClient]);

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder radius="lg" p="xl" maw={420} w="100%">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={56} radius="xl" color="green" variant="light" aria-hidden>
            <IconCircleCheck size={32} />
          </ThemeIcon>
          <Title order={1} size="h3">
            Connected
          </Title>
          <Text c="dimmed" size="sm">
            {inPopup ? 'The connection was added. This window closes by itself.' : 'The connection was added to your account.'}
          </Text>
          {!inPopup && (
            <Button component={Link} to="/" mt="xs">
              Back to Greenroom
            </Button>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
