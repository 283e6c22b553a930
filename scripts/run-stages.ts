/**
 * Runs npm scripts in stages and prints how long each took: `tsx scripts/run-stages.ts lint+typecheck test:unit …`.
 * Scripts joined by `+` run at the same time (their output is printed whole when each ends, never interleaved);
 * stages run one after the other and the first failing stage stops the run with its exit code.
 */
import { spawn } from 'node:child_process';

interface Outcome {
  script: string;
  code: number;
  seconds: number;
  output: string;
}

function run(script: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '1' },
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) =>
      resolve({ script, code: code ?? 1, seconds: (performance.now() - started) / 1000, output: Buffer.concat(chunks).toString() }),
    );
  });
}

async function main(): Promise<void> {
  const stages = process.argv.slice(2).map((stage) => stage.split('+'));
  if (stages.length === 0) throw new Error('usage: tsx scripts/run-stages.ts <script>[+<script>…] …');
  const timings: string[] = [];
  const total = performance.now();
  for (const scripts of stages) {
    const started = performance.now();
    const outcomes = await Promise.all(
      scripts.map(async (script) => {
        const outcome = await run(script);
        process.stdout.write(outcome.output);
        console.log(`── ${script}: ${outcome.code === 0 ? 'ok' : `failed (exit ${outcome.code})`} in ${outcome.seconds.toFixed(1)} s`);
        return outcome;
      }),
    );
    timings.push(`${scripts.join(' + ')}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const failed = outcomes.find((o) => o.code !== 0);
    if (failed) {
      console.log(`\nStages:\n  ${timings.join('\n  ')}`);
      process.exit(failed.code);
    }
  }
  console.log(`\nStages:\n  ${timings.join('\n  ')}\n  total: ${((performance.now() - total) / 1000).toFixed(1)} s`);
}

void main();
