import { describe, expect, it } from 'vitest';
import { SHELL_FRAMES } from '../components/shell-frames';
import { shellFrameFor } from './app-loading';

describe('shellFrameFor', () => {
  it('draws the channel shell, with its navbar unless the user hid it, for channel pages', () => {
    expect(shellFrameFor('/channels/abc/chat')).toEqual(SHELL_FRAMES.channel);
    expect(shellFrameFor('/channels/abc')).toEqual(SHELL_FRAMES.channel);
    expect(shellFrameFor('/channels/abc/chat', true)).toEqual({ headerHeight: SHELL_FRAMES.channel.headerHeight, navbarWidth: 0 });
  });

  it('draws the admin shell for admin pages and the header-only shell for the home pages', () => {
    expect(shellFrameFor('/admin/channels')).toEqual(SHELL_FRAMES.admin);
    for (const path of ['/', '/channels', '/welcome', '/create-channel', '/channel-invite/x']) {
      expect(shellFrameFor(path)).toEqual(SHELL_FRAMES.home);
    }
  });

  it('draws no shell for pages outside the signed-in shells', () => {
    for (const path of [
      '/sign-in',
      '/sign-in/success',
      '/oauth/twitch',
      '/popout/channels/abc/chat',
      '/widget/w1',
      '/watch/twitch/someone',
      '/channels/abc/register/twitch',
      '/user-provider-connected',
    ]) {
      expect(shellFrameFor(path)).toBeNull();
    }
  });
});
