import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

/** The note shown for Kick: the bot must be a moderator of the channel to post links. */
export const KICK_NOTE = 'Make sure you mod the bot, Kick requires it to be able to post links in the chat.';

export function KickNote() {
  return (
    <Alert color="green" variant="light" icon={<IconInfoCircle aria-hidden />} p="xs">
      {KICK_NOTE}
    </Alert>
  );
}
