import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

/** The Kick note of spec §5. */
export const KICK_NOTE = 'Make sure you mod the bot, Kick requires it to be able to post links in the chat.';

export function KickNote() {
  return (
    <Alert color="green" variant="light" icon={<IconInfoCircle aria-hidden />} p="xs">
      {KICK_NOTE}
    </Alert>
  );
}
