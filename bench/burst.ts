// "One customer's burst": many withdrawal attempts at once by one customer while a second customer
// keeps reading /api/me. Measured, never asserted: the answer codes of the burst (no 5xx is the goal)
// and the bystander's latency during the burst beside the same bystander's latency alone, in the same run.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { BurstCustomer } from './app-fixture.ts';
import { median, printTable } from './measure.ts';

export interface BurstOptions {
  origin: string;
  burster: BurstCustomer;
  bystanderCookie: string;
  attempts: number;
  rounds: number;
  /** Reads of the bystander alone per round (the baseline). */
  baselineReads: number;
}

interface Answer {
  status: number | 'network error';
  milliseconds: number;
}

/** One GET on the given agent; resolves with the status (or a network error) and the time to the whole answer. */
function read(agent: http.Agent, origin: string, options: { path: string; cookie: string }): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(`${origin}${options.path}`, { method: 'GET', agent, headers: { origin, cookie: options.cookie } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, milliseconds: performance.now() - started }));
      response.on('error', () => resolve({ status: 'network error', milliseconds: performance.now() - started }));
    });
    request.on('error', () => resolve({ status: 'network error', milliseconds: performance.now() - started }));
    request.end();
  });
}

function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

/** The bystander's reads, one after another on a connection of its own, until `enough` says stop. */
async function bystanderReads(agent: http.Agent, options: BurstOptions, enough: (reads: number) => boolean): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (!enough(answers.length)) answers.push(await read(agent, options.origin, { path: '/api/me', cookie: options.bystanderCookie }));
  return answers;
}

interface BurstAnswers {
  counts: Record<string, number>;
  examples: Record<string, string>;
  seconds: number;
}

/** Runs bench/burst-sender.ts; `onSending` is called when its attempts start, the promise ends with their answers. */
function runBurster(orders: { origin: string; cookie: string; body: string; attempts: number }, onSending: () => void): Promise<BurstAnswers> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('bench', 'burst-sender.ts'), JSON.stringify(orders)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith('sending\n')) {
        onSending();
        output = output.slice('sending\n'.length);
      }
    });
    child.once('exit', (code) => {
      const line = output.trim();
      if (code !== 0 || line === '') reject(new Error(`the burst sender exited with code ${code}`));
      else resolve(JSON.parse(line) as BurstAnswers);
    });
  });
}

export async function measureOneCustomersBurst(options: BurstOptions, log: (message: string) => void): Promise<void> {
  const bystanderAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const statusCounts = new Map<string, number>();
  const examples = new Map<string, string>();
  const alone: Answer[] = [];
  const during: Answer[] = [];
  const burstSeconds: number[] = [];
  const body = JSON.stringify({ amount: '1', bankAccountId: options.burster.bankAccountId, pin: options.burster.pin });

  async function aloneRound(): Promise<void> {
    alone.push(...(await bystanderReads(bystanderAgent, options, (reads) => reads >= options.baselineReads)));
  }
  async function burstRound(): Promise<void> {
    let sending = false;
    let finished = false;
    const burst = runBurster({ origin: options.origin, cookie: options.burster.cookie, body, attempts: options.attempts }, () => {
      sending = true;
    }).finally(() => {
      finished = true;
    });
    // The bystander reads all the while; what counts is what it read while the attempts were under way (at least a few reads).
    const reads: Answer[] = [];
    while (!finished || reads.length < 5) {
      const answer = await read(bystanderAgent, options.origin, { path: '/api/me', cookie: options.bystanderCookie });
      if (sending) reads.push(answer);
    }
    const answers = await burst;
    during.push(...reads);
    burstSeconds.push(answers.seconds);
    for (const [status, count] of Object.entries(answers.counts)) statusCounts.set(status, (statusCounts.get(status) ?? 0) + count);
    for (const [status, example] of Object.entries(answers.examples)) if (!examples.has(status)) examples.set(status, example);
  }

  try {
    // Warm the bystander's connection and the app's prepared reads first.
    await bystanderReads(bystanderAgent, options, (reads) => reads >= 20);
    for (let round = 0; round < options.rounds; round += 1) {
      log(`  round ${round + 1} of ${options.rounds}: the bystander alone and during ${options.attempts} withdrawal attempts at once`);
      if (round % 2 === 0) {
        await aloneRound();
        await burstRound();
      } else {
        await burstRound();
        await aloneRound();
      }
    }
  } finally {
    bystanderAgent.destroy();
  }

  const total = options.attempts * options.rounds;
  const serverErrors = [...statusCounts].filter(([status]) => /^5\d\d$/.test(status)).reduce((sum, [, count]) => sum + count, 0);
  const breakdown = [...statusCounts]
    .sort(([first], [second]) => first.localeCompare(second))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  console.log('');
  printTable(
    ['burst', 'attempts', '5xx', 'answer codes', 'seconds per burst (median)'],
    [[`${options.attempts} x POST /api/withdrawals at once, one customer`, String(total), String(serverErrors), breakdown, median(burstSeconds).toFixed(1)]],
  );
  for (const [status, example] of [...examples].sort(([first], [second]) => first.localeCompare(second))) console.log(`  ${status}: ${example}`);
  console.log('');
  const latencyRow = (name: string, answers: Answer[]) => {
    const milliseconds = answers.map((answer) => answer.milliseconds);
    const failed = answers.filter((answer) => answer.status !== 200).length;
    return [
      name,
      String(answers.length),
      percentile(milliseconds, 0.5).toFixed(0),
      percentile(milliseconds, 0.99).toFixed(0),
      Math.max(...milliseconds).toFixed(0),
      String(failed),
    ];
  };
  printTable(
    ['bystander GET /api/me', 'reads', 'p50 ms', 'p99 ms', 'max ms', 'non-200'],
    [latencyRow('alone (baseline)', alone), latencyRow('during the burst', during)],
  );
  console.log(`\n${options.rounds} rounds; goal: no 5xx, bystander p99 during the burst under 500 ms.`);
}
