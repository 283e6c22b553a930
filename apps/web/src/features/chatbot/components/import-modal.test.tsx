import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImportBody, TimerImportItem } from '@greenroom/contracts/api/chatbot';
import { ApiError } from '../../../lib/api-client';
import { installMatchMedia, renderWithMantine } from '../../../test/mantine';
import { ExportImportModal, type ImportPreview } from './import-modal';

beforeAll(() => {
  installMatchMedia();
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
});
afterEach(cleanup);

const line = (over: Partial<TimerImportItem>): TimerImportItem => ({
  source_name: 'Discord',
  status: 'ok',
  notes: [],
  name: 'Discord',
  messages: ['Join the Discord'],
  interval_minutes: 20,
  min_lines: 8,
  online_only: true,
  enabled: true,
  saved: false,
  error: null,
  ...over,
});

const preview: ImportPreview<TimerImportItem> = {
  source: 'streamelements',
  saved: 0,
  items: [
    line({}),
    line({
      source_name: 'Spam',
      name: null,
      status: 'skipped',
      notes: ['The interval 0 is below the minimum of 1 minute'],
      messages: [],
      interval_minutes: null,
      min_lines: null,
      online_only: null,
      enabled: null,
    }),
    line({ source_name: 'Rules', name: 'Rules', messages: ['Be nice'] }),
  ],
};

function Harness({ send }: { send: (body: ImportBody) => Promise<ImportPreview<TimerImportItem>> }) {
  const importer = useMutation({ mutationFn: send });
  return (
    <ExportImportModal<TimerImportItem>
      opened
      onClose={() => undefined}
      title="Import timers"
      noun={{ one: 'timer', many: 'timers' }}
      help="Paste it."
      importer={importer}
      nameHeader="Timer"
      columns={[{ header: 'Every', cell: (i) => (i.interval_minutes !== null ? `${i.interval_minutes} min` : '—') }]}
      detailHeader="Messages and notes"
      detail={(i) => i.messages[0]}
      minWidth={600}
    />
  );
}

describe('ExportImportModal', () => {
  it('previews, imports only the chosen lines, and shows a refused line its reason', { timeout: 30_000 }, async () => {
    const refused = new ApiError(400, 'bad_request', 'Nothing was imported: A timer named Rules already exists.', {
      type: 'bad_request',
      message: 'Nothing was imported: A timer named Rules already exists.',
      fields: { 'items.2.name': 'A timer named Rules already exists' },
    });
    const send = vi.fn(async (body: ImportBody) => {
      if (!body.apply) return preview;
      throw refused;
    });
    renderWithMantine(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <Harness send={send} />
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: /Export/ }), { target: { value: '[{"name":"Discord"}]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByText('StreamElements: 2 of 3 can be imported.');
    const table = screen.getByRole('table', { name: 'Import preview' });
    expect(within(table).getByText('The interval 0 is below the minimum of 1 minute')).toBeTruthy();
    expect(within(table).getByRole('checkbox', { name: 'Import Spam' }).hasAttribute('disabled')).toBe(true);

    // Leave Discord out: only Rules is sent.
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Import Discord' }));
    fireEvent.click(screen.getByRole('button', { name: 'Import 1 timer' }));
    await waitFor(() => expect(send).toHaveBeenLastCalledWith(expect.objectContaining({ apply: true, only: [2] }), expect.anything()));

    const rules = (await within(table).findByText('A timer named Rules already exists')).closest('tr')!;
    expect(within(rules).getByText('Not saved')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Nothing was imported: A timer named Rules already exists.');
    // The preview stays: the user can change the choice and try again.
    expect(screen.getByRole('button', { name: 'Import 1 timer' })).toBeTruthy();
  });
});
