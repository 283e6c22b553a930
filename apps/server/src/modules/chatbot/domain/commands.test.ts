import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CommandMatcher, Cooldowns, parseInput, pickResponse, type CommandDefinition } from './commands';

export function commandDef(over: Partial<CommandDefinition> = {}): CommandDefinition {
  return {
    id: over.id ?? 'c1',
    name: '!hello',
    aliases: [],
    builtin: null,
    responses: ['Hello $(user)'],
    responseMode: 'random',
    level: 0,
    globalCooldownSeconds: 0,
    userCooldownSeconds: 0,
    platforms: [],
    replyMode: 'say',
    enabled: true,
    ...over,
  };
}

describe('commands', () => {
  it('parses the first word and the arguments', () => {
    expect(parseInput('  !SO @bob   great  streamer ')).toEqual({
      word: '!so',
      query: '@bob   great  streamer',
      args: ['@bob', 'great', 'streamer'],
    });
    expect(parseInput('   ')).toBeNull();
  });

  it('matches names and aliases case-insensitively, skips disabled commands', () => {
    const m = new CommandMatcher([
      commandDef({ id: 'a', name: '!hello', aliases: ['!hi', '!HEY'] }),
      commandDef({ id: 'b', name: '!off', enabled: false }),
      commandDef({ id: 'c', name: 'ping' }),
    ]);
    expect(m.match('!Hello there')?.command.def.id).toBe('a');
    expect(m.match('!hey')?.command.def.id).toBe('a');
    expect(m.match('!hi you')?.input.args).toEqual(['you']);
    expect(m.match('!off')).toBeNull();
    expect(m.match('Ping')?.command.def.id).toBe('c');
    expect(m.match('hello !hello')).toBeNull();
    expect(m.match('')).toBeNull();
  });

  it('compiles response templates once', () => {
    const m = new CommandMatcher([commandDef({ responses: ['a $(user)', 'b'] })]);
    expect(m.commands[0]!.templates).toHaveLength(2);
    expect(m.commands[0]!.templates[0]!.names.has('user')).toBe(true);
  });

  it('cooldowns: one answer per global window under a burst', () => {
    const c = new Cooldowns();
    const def = { id: 'x', globalCooldownSeconds: 10, userCooldownSeconds: 0 };
    let answered = 0;
    for (let i = 0; i < 100; i++) if (c.take(def, `u${i}`, 1000 + i)) answered++;
    expect(answered).toBe(1);
    expect(c.take(def, 'u1', 11_000)).toBe(true);
  });

  it('cooldowns: per user', () => {
    const c = new Cooldowns();
    const def = { id: 'x', globalCooldownSeconds: 0, userCooldownSeconds: 30 };
    expect(c.take(def, 'a', 0)).toBe(true);
    expect(c.take(def, 'a', 1000)).toBe(false);
    expect(c.take(def, 'b', 1000)).toBe(true);
    expect(c.take(def, 'a', 30_000)).toBe(true);
    c.reset('x');
    expect(c.take(def, 'b', 2000)).toBe(true);
  });

  it('cooldowns: memory stays bounded', () => {
    const c = new Cooldowns();
    const def = { id: 'x', globalCooldownSeconds: 0, userCooldownSeconds: 1 };
    for (let i = 0; i < 20_000; i++) c.take(def, `u${i}`, i * 10);
    expect((c as unknown as { perUser: Map<string, number> }).perUser.size).toBeLessThan(3000);
  });

  it('picks responses at random or in turn', () => {
    expect([0, 1, 2, 3].map((t) => pickResponse(3, 'in_turn', t, () => 0))).toEqual([0, 1, 2, 0]);
    expect(pickResponse(3, 'random', 0, () => 0.99)).toBe(2);
    expect(pickResponse(1, 'random', 5, () => 0.99)).toBe(0);
  });

  it('property: matching arbitrary Unicode never throws', () => {
    const m = new CommandMatcher([commandDef({ name: '!héllo', aliases: ['ß', '🙂'] }), commandDef({ id: 'b', name: '!a' })]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), (text) => {
        const r = m.match(text);
        if (r) expect(['c1', 'b']).toContain(r.command.def.id);
      }),
      { numRuns: 2000 },
    );
  });
});
