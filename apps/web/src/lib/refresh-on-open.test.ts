import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshOnOpen } from './refresh-on-open';

/** A server whose answers can be held: each read sees the state at the time it is read, delivered on `deliver()`. */
function heldServer(initial: string) {
  let state = initial;
  const waiting: (() => void)[] = [];
  let reads = 0;
  return {
    set: (next: string) => void (state = next),
    reads: () => reads,
    deliver: () => waiting.splice(0).forEach((go) => go()),
    read: () => {
      reads++;
      const seen = state;
      return new Promise<string>((resolve) => waiting.push(() => resolve(seen)));
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Answers every read as it comes (each with the state it saw) until `work` is done. */
async function answering<T>(server: ReturnType<typeof heldServer>, work: Promise<T>): Promise<T> {
  let done = false;
  const finished = work.finally(() => void (done = true));
  while (!done) {
    server.deliver();
    await tick();
  }
  return finished;
}

describe('refreshOnOpen', () => {
  it('reads again after a first read that was answered before the socket opened', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5 * 60_000 } } });
    const server = heldServer('before');
    const observer = new QueryObserver(queryClient, { queryKey: ['list'], queryFn: server.read });
    const unsubscribe = observer.subscribe(() => undefined);
    // The page's first read is answered with 'before'; the state changes; then the socket opens.
    server.set('after');
    await answering(server, refreshOnOpen(queryClient, { queryKey: ['list'] }));
    expect(queryClient.getQueryData(['list'])).toBe('after');
    expect(server.reads()).toBe(2);
    unsubscribe();
  });

  it('reads once when nothing is in flight, and callers sharing the socket share that read', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5 * 60_000 } } });
    const server = heldServer('one');
    const observer = new QueryObserver(queryClient, { queryKey: ['list'], queryFn: server.read });
    const unsubscribe = observer.subscribe(() => undefined);
    await answering(server, observer.refetch({ cancelRefetch: false }));
    expect(queryClient.getQueryData(['list'])).toBe('one');
    const readsBefore = server.reads();
    server.set('two');
    await answering(
      server,
      Promise.all([refreshOnOpen(queryClient, { queryKey: ['list'] }), refreshOnOpen(queryClient, { queryKey: ['list'] })]),
    );
    expect(queryClient.getQueryData(['list'])).toBe('two');
    expect(server.reads() - readsBefore).toBe(1);
    unsubscribe();
  });
});
