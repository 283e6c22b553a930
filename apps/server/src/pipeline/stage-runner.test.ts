import { describe, expect, it } from 'vitest';
import { AccessLevel } from '@greenroom/contracts/access';
import type { Activity } from '@greenroom/contracts/api/events';
import { chatMessage } from '../../test/chat-fixtures';
import type { ChatStage, StageMessage } from './stage';
import { StageRunner } from './stage-runner';
import { audienceOf } from './ingest';

const input = (text: string): StageMessage => ({ message: chatMessage(1, { text }), audience: 0, isSelf: false, now: 1 });

function stage(name: string, phase: ChatStage['phase'], on: ChatStage['onMessage'], onActivity?: ChatStage['onActivity']): ChatStage {
  return { name, phase, onMessage: on, ...(onActivity ? { onActivity } : {}) };
}

describe('StageRunner', () => {
  it('runs moderation stages, then command stages, each in registration order', () => {
    const runner = new StageRunner({ error: () => {} });
    const order: string[] = [];
    runner.add(stage('cmd', 'command', () => void order.push('cmd')));
    runner.add(stage('mod1', 'moderation', () => void order.push('mod1')));
    runner.add(stage('mod2', 'moderation', () => void order.push('mod2')));
    runner.onMessage(input('hi'));
    expect(order).toEqual(['mod1', 'mod2', 'cmd']);
    expect(() => runner.add(stage('cmd', 'command', () => {}))).toThrow(/already registered/);
  });

  it('a filter stops later moderation and all command stages, keeping what the filter decided', () => {
    const runner = new StageRunner({ error: () => {} });
    const seen: string[] = [];
    runner.add(
      stage('links', 'moderation', (m, out) => {
        if (m.message.text.includes('http')) {
          out.filter({ stage: 'links', reason: 'Links are not allowed' });
          out.effect({ kind: 'chatbot.filter-action', channelId: 'c1', payload: { delete: m.message.id } });
        }
      }),
    );
    runner.add(stage('caps', 'moderation', () => void seen.push('caps')));
    runner.add(
      stage('commands', 'command', (_m, out) => {
        seen.push('commands');
        out.filter({ stage: 'commands', reason: 'command stages cannot filter' });
      }),
    );
    const filtered = runner.onMessage(input('see http://spam'));
    expect(filtered.filter).toEqual({ stage: 'links', reason: 'Links are not allowed' });
    expect(filtered.effects).toHaveLength(1);
    expect(seen).toEqual([]);
    const fine = runner.onMessage(input('hello'));
    expect(fine.filter).toBeNull();
    expect(seen).toEqual(['caps', 'commands']);
  });

  it('isolates a stage that throws: its output is discarded, it is counted and logged, the others run', () => {
    const logged: object[] = [];
    const runner = new StageRunner({ error: (o) => void logged.push(o) });
    runner.add(
      stage('broken', 'moderation', (_m, out) => {
        out.filter({ stage: 'broken', reason: 'half done' });
        out.effect({ kind: 'x', channelId: 'c1', payload: 1 });
        throw new Error('regex exploded');
      }),
    );
    runner.add(stage('reply', 'command', (_m, out) => out.effect({ kind: 'chatbot.reply', channelId: 'c1', payload: 'pong' })));
    for (let i = 0; i < 3; i++) {
      const outcome = runner.onMessage(input('!ping'));
      expect(outcome.filter).toBeNull();
      expect(outcome.effects).toEqual([{ kind: 'chatbot.reply', channelId: 'c1', payload: 'pong' }]);
    }
    expect(runner.errorsOf('broken')).toBe(3);
    expect(runner.stats.stageErrors).toBe(3);
    // Logged once (then at most every 10 s, with the count), never once per message.
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ stage: 'broken' });
  });

  it('passes activities to stages that take them; a throwing one is isolated', () => {
    const runner = new StageRunner({ error: () => {} });
    runner.add(
      stage(
        'thanks',
        'command',
        () => {},
        (a, _now, out) => out.effect({ kind: 'chatbot.reply', channelId: a.channel_id, payload: `thanks ${a.type}` }),
      ),
    );
    runner.add(
      stage(
        'bad',
        'command',
        () => {},
        () => {
          throw new Error('no');
        },
      ),
    );
    const activity = { id: 'a', channel_id: 'c1', type: 'follow' } as Activity;
    expect(runner.onActivity(activity, 1)).toEqual([{ kind: 'chatbot.reply', channelId: 'c1', payload: 'thanks follow' }]);
    expect(runner.errorsOf('bad')).toBe(1);
  });
});

describe('audienceOf', () => {
  const roles = { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false };
  it('maps platform roles to the highest audience level that applies', () => {
    expect(audienceOf(roles)).toBe(AccessLevel.PUBLIC);
    expect(audienceOf({ ...roles, verified: true })).toBe(AccessLevel.PUBLIC);
    expect(audienceOf({ ...roles, member: true })).toBe(AccessLevel.SUB);
    expect(audienceOf({ ...roles, subscriber: true, vip: true })).toBe(AccessLevel.VIP);
    expect(audienceOf({ ...roles, moderator: true, vip: true })).toBe(AccessLevel.MOD);
    expect(audienceOf({ ...roles, broadcaster: true, moderator: true })).toBe(AccessLevel.OWNER);
  });
});
