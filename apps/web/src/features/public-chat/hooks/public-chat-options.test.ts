import { describe, expect, it } from 'vitest';
import { parsePublicChatOptions } from './public-chat-options';

describe('public chat popout options', () => {
  it('uses defaults without a query', () => {
    expect(parsePublicChatOptions(new URLSearchParams())).toEqual({ fontSize: 16, providers: [], transparent: false, max: 50 });
  });

  it('reads font size, platforms, transparency and max, ignoring unknown platforms', () => {
    expect(parsePublicChatOptions(new URLSearchParams('font_size=24&providers=twitch,KICK,evil,twitch&transparent=1&max=20'))).toEqual({
      fontSize: 24,
      providers: ['twitch', 'kick'],
      transparent: true,
      max: 20,
    });
  });

  it('clamps out-of-range numbers and ignores garbage', () => {
    expect(parsePublicChatOptions(new URLSearchParams('font_size=9999&max=-4'))).toMatchObject({ fontSize: 64, max: 1 });
    expect(parsePublicChatOptions(new URLSearchParams('font_size=abc&max=x'))).toMatchObject({ fontSize: 16, max: 50 });
  });
});
