import { describe, expect, it } from 'vitest';
import { residentByMapping } from './memory-report';

const kB = 1024;

describe('residentByMapping', () => {
  it('sorts resident pages into the WebAssembly memory, files and the rest', () => {
    const smaps = [
      '00400000-00b72000 r-xp 00000000 08:01 123 /usr/bin/node',
      'Size:               7624 kB',
      'Rss:                5000 kB',
      // The WebAssembly memory, exactly its size (128 MiB).
      '7f3118000000-7f3120000000 rw-p 00000000 00:00 0 ',
      'Rss:               60000 kB',
      // A V8 guard-region reservation (10 GiB).
      '3e0000000000-3e0280000000 ---p 00000000 00:00 0',
      'Rss:                  40 kB',
      // A malloc arena and the heap.
      '7f4290000000-7f4294000000 rw-p 00000000 00:00 0',
      'Rss:               20000 kB',
      '106e0000-120e0000 rw-p 00000000 00:00 0                                  [heap]',
      'Rss:                2500 kB',
      '',
    ].join('\n');
    expect(residentByMapping(smaps, 128 * 1024 * 1024)).toEqual({ wasm: 60_040 * kB, files: 5000 * kB, anonymous: 22_500 * kB });
    // Without the memory's size only the reservations count as WebAssembly.
    expect(residentByMapping(smaps, null)).toEqual({ wasm: 40 * kB, files: 5000 * kB, anonymous: 82_500 * kB });
  });
});
