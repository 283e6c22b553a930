import { Text } from '@mantine/core';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';

/**
 * Who bot messages go out as on this connection, truthfully: its own bot account, the operators' system bot, on
 * Kick the bot of Greenroom's Kick app (Kick posts a `bot` message as the app's bot account), or nobody.
 */
export function botAccountText(p: ChannelProvider): string {
  const info = providers[p.provider];
  if (!info.chatWrite) return `${info.name} chat is read only`;
  const bot = p.bot_provider;
  if (!bot && p.provider === 'kick') return "Bot messages are sent by the bot of Greenroom's Kick app";
  if (!bot) return `No bot account: bot messages cannot be sent on ${info.name}`;
  return bot.system ? `Bot: ${bot.display_name} (Greenroom system bot)` : `Bot: ${bot.display_name}`;
}

export function BotAccountLine({ provider: p }: { provider: ChannelProvider }) {
  return (
    <Text size="xs" c="dimmed">
      {botAccountText(p)}
    </Text>
  );
}
