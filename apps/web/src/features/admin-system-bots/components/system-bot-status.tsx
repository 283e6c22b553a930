import { Badge } from '@mantine/core';
import type { SystemBotProvider } from '@greenroom/contracts/api/system-bots';

/** "Reconnect needed" (scope_needed), "Connected" or "Not connected". */
export function SystemBotStatus({ bot }: { bot: SystemBotProvider | undefined }) {
  if (!bot) {
    return (
      <Badge color="gray" variant="light" size="sm">
        Not connected
      </Badge>
    );
  }
  return bot.scope_needed ? (
    <Badge color="orange" variant="filled" size="sm">
      Reconnect needed
    </Badge>
  ) : (
    <Badge color="green" variant="light" size="sm">
      Connected
    </Badge>
  );
}
