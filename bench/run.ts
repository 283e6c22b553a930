/**
 * `npm run bench`: every hot-path benchmark in turn. Each module measures its own baseline in the
 * same run and prints figures and ratios; this runner prints them together.
 * Run one: `npx tsx bench/<name>.ts`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

/** Module file → its exported bench function. */
const benches: [string, string][] = [
  ['emulator', 'benchEmulator'],
  ['chat-ingest', 'benchChatIngest'],
  ['ws-fanout', 'benchWsFanout'],
  ['chat-persist', 'benchChatPersist'],
  ['chat-render', 'benchChatRender'],
  ['message-buffer', 'benchMessageBuffer'],
  ['chatbot', 'benchChatbot'],
  ['widget-render', 'benchWidgetRender'],
  ['stats', 'benchStats'],
  ['web-delivery', 'benchWebDelivery'],
  ['points', 'benchPoints'],
];

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
let failed = false;
for (const [file, fn] of benches) {
  if (only.length > 0 && !only.includes(file)) continue;
  const modulePath = path.join(here, `${file}.ts`);
  if (!existsSync(modulePath)) continue;
  console.log(`\n== ${file}`);
  try {
    const mod = (await import(modulePath)) as Record<string, () => Promise<BenchResult[]>>;
    const run = mod[fn];
    if (!run) throw new Error(`${file}.ts does not export ${fn}`);
    for (const r of await run()) console.log(`  ${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}`);
  } catch (error) {
    failed = true;
    console.error(`  failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(failed ? 1 : 0);
