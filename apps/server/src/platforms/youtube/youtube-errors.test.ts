import { describe, expect, it } from 'vitest';
import { PlatformError } from '../platform-error';
import { youtubeErrorFixtures } from './youtube-error-fixtures';
import { isChatGone, isQuotaError, parseYoutubeError } from './youtube-errors';

describe('YouTube error parser (recorded Google answers)', () => {
  it.each(youtubeErrorFixtures.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const error = parseYoutubeError({ status: f.status, body: f.body }, 'send the message');
    expect(error).toMatchObject({ code: f.code, provider: 'youtube' });
    if (f.reason !== null) expect(error.reason).toBe(f.reason);
    expect(error.message).toMatch(f.message);
  });

  it('tells the connection loop about quota and ended chats', () => {
    const [quota] = youtubeErrorFixtures;
    expect(isQuotaError(parseYoutubeError({ status: quota!.status, body: quota!.body }, 'poll'))).toBe(true);
    const ended = youtubeErrorFixtures.find((f) => f.reason === 'liveChatEnded')!;
    expect(isChatGone(parseYoutubeError({ status: ended.status, body: ended.body }, 'poll'))).toBe(true);
    expect(isChatGone(new PlatformError('refused', 'youtube', 'x'))).toBe(false);
  });

  it('strips HTML from Google messages and treats 5xx as temporary', () => {
    const error = parseYoutubeError({ status: 404, body: { error: { message: 'No <b>video</b>' } } }, 'read the video');
    expect(error).toMatchObject({ code: 'not_found', message: 'YouTube could not read the video: No video' });
    expect(parseYoutubeError({ status: 503, body: null }, 'poll')).toMatchObject({ code: 'temporary' });
  });
});
