import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installMatchMedia, renderWithMantine } from '../../../test/mantine';
import { TimeoutForm } from './timeout-form';

beforeAll(() => {
  installMatchMedia();
  // The reason field autosizes when fonts load; jsdom has no FontFaceSet.
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  // SegmentedControl measures its options.
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
});
afterEach(cleanup);

const target = (provider: 'kick' | 'twitch') => ({
  channelId: 'c1',
  provider,
  channelProviderId: 'cp1',
  providerViewerId: 'v1',
  displayName: 'Viewer',
});

describe('TimeoutForm', () => {
  // The first Mantine render in jsdom is slow on a busy machine.
  it('offers only whole minutes and hours on Kick, and explains its range before sending', { timeout: 30_000 }, async () => {
    const onSubmit = vi.fn(async () => true);
    renderWithMantine(<TimeoutForm target={target('kick')} onSubmit={onSubmit} onCancel={() => undefined} />);
    expect(screen.queryByText('Seconds')).toBeNull();
    expect(screen.getByText('Minutes')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Duration'), { target: { value: '200' } });
    fireEvent.click(screen.getByText('Hours'));
    expect(screen.getByText('Kick timeouts last from 1 minute to 7 days.')).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Time out' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Duration'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Time out for 2:00:00' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(7200, ''));
  });

  it('offers seconds on Twitch', () => {
    renderWithMantine(<TimeoutForm target={target('twitch')} onSubmit={async () => true} onCancel={() => undefined} />);
    expect(screen.getByText('Seconds')).toBeTruthy();
  });
});
