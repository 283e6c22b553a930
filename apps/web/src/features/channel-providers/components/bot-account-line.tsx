import { Text } from '@mantine/core';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';

/** Who the chatbot sends as on this connection: its own bot account, the operators' system bot, or the broadcaster. */
export function botAccountText(p: ChannelProvider): string {
  const info = providers[p.provider];
  if (!info.chatWrite) return `${info.name} chat is read only`;
  const bot = p.bot_provider;
  if (!bot) return `Bot messages are sent as ${p.provider_channel_name}`;
  return bot.system ? `Bot: ${bot.display_name} (Greenroom system bot)` : `Bot: ${bot.display_name}`;
}

export function BotAccountLine({ provider: p }: { provider: ChannelProvider }) {
  return (
    <Text size="xs" c="dimmed">
      {botAccountText(p)}
    </Text>
  );
}
