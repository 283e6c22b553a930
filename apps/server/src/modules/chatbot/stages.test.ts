/**
 * The command stage alone, with an in-memory bot: it never answers on a platform whose chat is read-only
 * (TikTok has no chat write API), while the same command typed on Twitch answers.
 */
import { describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { providers } from '@greenroom/contracts/providers';
import type { PipelineEffect, StageMessage } from '../../pipeline/stage';
import { chatMessage } from '../../../test/chat-fixtures';
import { BuiltinRegistry } from './builtins';
import { ChannelBot } from './chatbot-state';
import type { CommandDefinition } from './domain/commands';
import { createCommandStage, REPLY_EFFECT } from './stages';

const hello: CommandDefinition = {
  id: 'cmd-hello',
  name: '!hello',
  aliases: [],
  builtin: null,
  responses: ['Hello $(user)'],
  responseMode: 'random',
  level: AccessLevel.PUBLIC,
  // A global cooldown: a reply wrongly taken on TikTok would also use it up for Twitch.
  globalCooldownSeconds: 30,
  userCooldownSeconds: 0,
  platforms: [],
  replyMode: 'say',
  enabled: true,
};

function setup() {
  const bot = new ChannelBot('c1');
  bot.setCommands([hello]);
  const stage = createCommandStage({ get: (id) => (id === 'c1' ? bot : null) }, new BuiltinRegistry());
  const effects: PipelineEffect[] = [];
  const out = { filter: () => {}, effect: (e: PipelineEffect) => effects.push(e) };
  let n = 0;
  const type = (provider: ChannelProviderId, text: string) => {
    n++;
    const input: StageMessage = {
      message: chatMessage(n, { provider, id: `${provider}:m${n}`, text }),
      audience: AccessLevel.PUBLIC,
      isSelf: false,
      now: 1_700_000_000_000 + n,
    };
    stage.onMessage(input, out);
  };
  return { bot, effects, type };
}

describe('command stage on a read-only platform', () => {
  it('TikTok is in the catalogue as read-only (the premise of this test)', () => {
    expect(providers.tiktok.chatWrite).toBe(false);
    expect(providers.twitch.chatWrite).toBe(true);
  });

  it('a command typed on TikTok stores no reply, uses no cooldown, and still counts the line for timers', () => {
    const { bot, effects, type } = setup();
    type('tiktok', '!hello');
    expect(effects).toEqual([]);
    expect(bot.lines).toBe(1);
    // The global cooldown was not taken by the TikTok line: Twitch answers right after.
    type('twitch', '!hello');
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ kind: REPLY_EFFECT, channelId: 'c1', payload: { provider: 'twitch', commandId: 'cmd-hello' } });
  });

  it('TikTok never answers, even with every cooldown free', () => {
    const { effects, type } = setup();
    for (let i = 0; i < 5; i++) type('tiktok', '!hello there');
    expect(effects).toEqual([]);
  });
});
