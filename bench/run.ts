// Measures the production build against bare baselines on the same machine, in the same run,
// interleaved, over several rounds (see bench/README.md).
// Usage: npm run bench [-- --seconds 3 --rounds 3 --connections 10]
//        npm run bench -- --scale      (empty database against 100,000 customers and 1,000,000 history rows)
//        --skip-build                  (measure the build already in .build/bench)
//        --build-dir <name>            (build into .build/<name> instead of .build/bench)
//        --lighthouse-only / --no-lighthouse (the Lighthouse step of the default run alone, or without it)
//        --lighthouse-reports <dir>    (write each page's full Lighthouse report there as JSON)
//        --only burst / --no-burst     (the one-customer burst of the default run alone, or without it)
//        --follower-only / --no-follower (the chain follower against a bare log-fetching loop alone, or without it; bench/follower.ts)
//        --follower-blocks 500         (recorded blocks per follower round, 200 USDT transfers each)
//        --follower-credits 1          (of each block's 200 transfers, how many pay a customer's deposit address)
//        --burst-attempts 1000         (withdrawal attempts sent at once in each burst)
//        --endpoints transactions,me   (only the rows whose name contains one of these, case-insensitive; with --scale too)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase, withDatabaseName } from '../src/server/db/embedded.ts';
import { BENCH_ADMIN, HISTORY_PAGE_SIZE, prepareApp, type AppFixture } from './app-fixture.ts';
import { measureOneCustomersBurst } from './burst.ts';
import { measureFollower } from './follower.ts';
import { reportLighthouse } from './lighthouse.ts';
import { countRoundTrips, measure, median, printTable, ratioText, type Sample, type Target } from './measure.ts';
import { startApp, startBaseline, type RunningServer } from './processes.ts';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}
function numberOption(name: string, fallback: number, min: number, max: number): number {
  const value = Number(option(name) ?? fallback);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number`);
  return Math.min(Math.max(value, min), max);
}
const seconds = numberOption('seconds', 3, 1, 60);
const rounds = numberOption('rounds', 3, 1, 15);
const connections = numberOption('connections', 10, 1, 200);
const scale = process.argv.includes('--scale');
const lighthouseOnly = process.argv.includes('--lighthouse-only');
const skipLighthouse = process.argv.includes('--no-lighthouse');
const only = option('only');
if (only !== undefined && only !== 'burst') throw new Error('--only takes: burst');
const skipBurst = process.argv.includes('--no-burst');
const burstAttempts = numberOption('burst-attempts', 1_000, 1, 5_000);
const followerOnly = process.argv.includes('--follower-only');
const skipFollower = process.argv.includes('--no-follower');
const followerBlocks = numberOption('follower-blocks', 500, 50, 5_000);
const followerCredits = numberOption('follower-credits', 1, 0, 200);
const endpointFilter = option('endpoints')
  ?.toLowerCase()
  .split(',')
  .filter((part) => part !== '');
const log = (message: string) => console.log(message);

const workDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-bench-'));
// As root, PostgreSQL runs as the postgres user, who must be able to enter this folder.
fs.chmodSync(workDirectory, 0o755);
// Inside the repository, so that the built server finds its packages in node_modules.
const buildDirectory = path.resolve('.build', (option('build-dir') ?? 'bench').replace(/[^a-z0-9-]/gi, ''));
const postgresDataDirectory = path.join(workDirectory, 'database', 'postgres');
const measureOptions = { seconds, connections, postgresDataDirectory };

if (followerOnly) {
  log('The follower bench runs the source code; no build needed.');
} else if (process.argv.includes('--skip-build') && fs.existsSync(path.join(buildDirectory, 'server', 'main.js'))) {
  log(`Using the existing build in ${buildDirectory}.`);
} else {
  log('Building the production server...');
  const build = spawnSync(process.execPath, ['scripts/build-into.mjs', buildDirectory], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const database = await startEmbeddedDatabase({
  dataDirectory: path.join(workDirectory, 'database'),
  purpose: 'server',
  log: () => undefined,
  settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'top' },
});
const statistics = new pg.Client({ connectionString: database.serverUrl });
await statistics.connect();
await statistics.query('create extension if not exists pg_stat_statements');

const servers: RunningServer[] = [];
async function cleanUp(): Promise<void> {
  for (const server of servers.reverse()) await server.stop().catch(() => undefined);
  await statistics.end().catch(() => undefined);
  await database.stop();
  fs.rmSync(workDirectory, { recursive: true, force: true });
}

async function createDatabase(name: string): Promise<string> {
  await statistics.query(`create database ${statistics.escapeIdentifier(name)}`);
  return withDatabaseName(database.serverUrl, name);
}

async function startMeasuredApp(name: string): Promise<{ server: RunningServer; databaseUrl: string }> {
  const databaseUrl = await createDatabase(name);
  const server = await startApp({
    buildDirectory,
    databaseUrl,
    dataDirectory: path.join(workDirectory, name),
    adminEmail: BENCH_ADMIN.email,
    adminPassword: BENCH_ADMIN.password,
  });
  servers.push(server);
  return { server, databaseUrl };
}

interface Scenario {
  name: string;
  target(fixture: AppFixture): Target;
  /** The most SQL round trips one request may take; the run prints the count against it. */
  roundTripBudget?: number;
}

function get(name: string, url: string, who: 'customer' | 'admin' | 'nobody'): Scenario {
  return {
    name,
    target: (fixture) => ({
      origin: fixture.origin,
      method: 'GET',
      path: url.replace('{deepCursor}', fixture.deepHistoryCursor),
      ...(who === 'nobody' ? {} : { cookie: who === 'customer' ? fixture.customerCookie : fixture.adminCookie }),
    }),
  };
}

const withdrawalScenario: Scenario = {
  name: 'POST /api/withdrawals (8 customers, PIN checked)',
  // Decision 022: the session lookup, the ownership read, the PIN check's own transaction and the money
  // transaction with decision 036's hold check, BEGIN and COMMIT included (13), and the session's last-seen
  // update that some requests make.
  roundTripBudget: 14,
  target: (fixture) => {
    let next = 0;
    return {
      origin: fixture.origin,
      method: 'POST',
      path: '/api/withdrawals',
      next: () => {
        const customer = fixture.withdrawingCustomers[next % fixture.withdrawingCustomers.length];
        next += 1;
        if (!customer) throw new Error('no withdrawing customers');
        return { cookie: customer.cookie, body: JSON.stringify({ amount: '1', bankAccountId: customer.bankAccountId, pin: customer.pin }) };
      },
    };
  },
};

async function warmUp(target: Target): Promise<void> {
  await measure(target, { ...measureOptions, seconds: 1 });
}

function formatRate(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function failures(samples: readonly Sample[]): string {
  const total = samples.reduce((sum, sample) => sum + sample.non2xx + sample.errors, 0);
  return total === 0 ? '0' : String(total);
}

/** Measures a and b back to back in every round, alternating which goes first. */
async function interleaved(a: Target, b: Target): Promise<{ a: Sample[]; b: Sample[] }> {
  const samples = { a: [] as Sample[], b: [] as Sample[] };
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      samples.a.push(await measure(a, measureOptions));
      samples.b.push(await measure(b, measureOptions));
    } else {
      samples.b.push(await measure(b, measureOptions));
      samples.a.push(await measure(a, measureOptions));
    }
  }
  return samples;
}

async function againstBaselines(): Promise<void> {
  const { server, databaseUrl } = await startMeasuredApp('rupeedesk');
  const fixture = await prepareApp(server.origin, databaseUrl, log);
  const baseline = await startBaseline({ databaseUrl, userId: fixture.customerUserId });
  servers.push(baseline);
  const baselineTarget = (kind: keyof typeof baselineNames): Target => ({
    origin: baseline.origin,
    method: kind === 'argon2' ? 'POST' : 'GET',
    path: baselinePaths[kind],
    ...(kind === 'argon2' ? { next: () => ({ cookie: '', body: '{}' }) } : {}),
  });
  const baselineNames = {
    bare: 'bare Fastify',
    select1: 'Fastify + pg, 1 select',
    select2: 'Fastify + pg, 2 selects',
    argon2: 'Fastify + argon2id verify',
    historyRows: 'Fastify + pg, 2 selects, the same history rows',
    withdrawalQueueRows: 'Fastify + pg, 2 selects, the same queue rows',
    historyJson: 'Fastify + pg, 2 selects, the same history rows as JSON text',
    withdrawalQueueJson: 'Fastify + pg, 2 selects, the same queue rows as JSON text',
  } as const;
  const baselinePaths: Record<keyof typeof baselineNames, string> = {
    bare: '/bare',
    select1: '/select1',
    select2: '/select2',
    argon2: '/argon2',
    historyRows: '/history-rows',
    withdrawalQueueRows: '/withdrawal-queue-rows',
    historyJson: '/history-json',
    withdrawalQueueJson: '/withdrawal-queue-json',
  };
  const history = get(`GET /api/transactions (${HISTORY_PAGE_SIZE} of 200)`, `/api/transactions?limit=${HISTORY_PAGE_SIZE}`, 'customer');
  const withdrawalQueue = get('GET /api/admin/withdrawals?status=pending', '/api/admin/withdrawals?status=pending', 'admin');
  // The two lists are measured twice: beside two one-row selects, and beside the same rows read bare.
  const allPairs: { scenario: Scenario; baseline: keyof typeof baselineNames }[] = [
    { scenario: get('GET /api/health', '/api/health', 'nobody'), baseline: 'select1' },
    { scenario: get('GET /api/rates', '/api/rates', 'nobody'), baseline: 'select1' },
    { scenario: get('GET /api/me', '/api/me', 'customer'), baseline: 'select2' },
    { scenario: get('GET /api/wallet/summary', '/api/wallet/summary', 'customer'), baseline: 'select2' },
    { scenario: history, baseline: 'select2' },
    { scenario: history, baseline: 'historyRows' },
    { scenario: get('GET /api/admin/users?q=kumar', '/api/admin/users?q=kumar', 'admin'), baseline: 'select2' },
    { scenario: withdrawalQueue, baseline: 'select2' },
    { scenario: withdrawalQueue, baseline: 'withdrawalQueueRows' },
    { scenario: get('GET /api/admin/dashboard', '/api/admin/dashboard', 'admin'), baseline: 'select2' },
    { scenario: withdrawalScenario, baseline: 'argon2' },
  ];
  const pairs = allPairs.filter(({ scenario }) => endpointFilter === undefined || endpointFilter.some((part) => scenario.name.toLowerCase().includes(part)));
  // Baselines measured against baselines, printed after the app's rows: one select against bare
  // Fastify, and the lists' bare rows against two one-row selects (how near any server that sends
  // such a page can come to the lists' goal), when the lists are measured.
  const measuredScenarios = new Set(pairs.map(({ scenario }) => scenario));
  const baselinePairs: { measured: keyof typeof baselineNames; against: keyof typeof baselineNames }[] = [
    { measured: 'select1', against: 'bare' },
    ...(measuredScenarios.has(history)
      ? ([
          { measured: 'historyRows', against: 'select2' },
          { measured: 'historyJson', against: 'select2' },
        ] as const)
      : []),
    ...(measuredScenarios.has(withdrawalQueue)
      ? ([
          { measured: 'withdrawalQueueRows', against: 'select2' },
          { measured: 'withdrawalQueueJson', against: 'select2' },
        ] as const)
      : []),
  ];

  log('Counting SQL round trips per request...');
  const roundTrips = new Map<string, number>();
  for (const kind of Object.keys(baselineNames) as (keyof typeof baselineNames)[]) {
    roundTrips.set(baselineNames[kind], await countRoundTrips(baselineTarget(kind), statistics, 'rupeedesk'));
  }
  for (const { scenario } of pairs) roundTrips.set(scenario.name, await countRoundTrips(scenario.target(fixture), statistics, 'rupeedesk'));

  log('Warming up...');
  for (const kind of Object.keys(baselineNames) as (keyof typeof baselineNames)[]) await warmUp(baselineTarget(kind));
  for (const { scenario } of pairs) await warmUp(scenario.target(fixture));

  /** One row of the table: `measured` (its round trips counted above under `countedAs`) and `baseline` interleaved over the rounds. */
  async function measuredRow(label: string, measured: Target, countedAs: string, baselineName: string, baseline: Target): Promise<string[]> {
    const samples = await interleaved(measured, baseline);
    const ratios = samples.a.map((sample, round) => sample.requestsPerSecond / (samples.b[round]?.requestsPerSecond ?? Number.NaN));
    return [
      label,
      formatRate(median(samples.a.map((sample) => sample.requestsPerSecond))),
      baselineName,
      formatRate(median(samples.b.map((sample) => sample.requestsPerSecond))),
      ratioText(ratios),
      String(median(samples.a.map((sample) => sample.p50Milliseconds))),
      `${median(samples.a.map((sample) => sample.p99Milliseconds))} / ${median(samples.b.map((sample) => sample.p99Milliseconds))}`,
      (roundTrips.get(countedAs) ?? 0).toFixed(1),
      `${median(samples.a.map((sample) => sample.postgresCpuMillisecondsPerRequest)).toFixed(2)} / ${median(samples.b.map((sample) => sample.postgresCpuMillisecondsPerRequest)).toFixed(2)}`,
      failures([...samples.a, ...samples.b]),
    ];
  }

  const rows: string[][] = [];
  log(`Measuring: ${rounds} rounds of ${seconds} s per request, ${connections} connections, app and baseline back to back...`);
  for (const { scenario, baseline: kind } of pairs) {
    log(`  ${scenario.name} against ${baselineNames[kind]}`);
    rows.push(await measuredRow(scenario.name, scenario.target(fixture), scenario.name, baselineNames[kind], baselineTarget(kind)));
  }
  for (const { measured, against } of baselinePairs) {
    log(`  ${baselineNames[measured]} against ${baselineNames[against]}`);
    rows.push(
      await measuredRow(`(${baselineNames[measured]})`, baselineTarget(measured), baselineNames[measured], baselineNames[against], baselineTarget(against)),
    );
  }
  console.log('');
  printTable(
    [
      'endpoint',
      'app req/s',
      'baseline',
      'baseline req/s',
      'ratio median (min-max)',
      'p50 ms',
      'p99 ms app / baseline',
      'SQL round trips',
      'PG CPU ms/req app / baseline',
      'non-2xx',
    ],
    rows,
  );
  console.log(`\n${rounds} rounds x ${seconds} s, ${connections} connections, ${os.cpus().length} CPUs; ratio = app / baseline in the same round.`);
  for (const { scenario } of pairs) {
    if (scenario.roundTripBudget === undefined) continue;
    const counted = roundTrips.get(scenario.name) ?? 0;
    const verdict = counted <= scenario.roundTripBudget ? 'within' : 'OVER';
    console.log(`Round-trip budget: ${scenario.name}: ${counted.toFixed(1)} of at most ${scenario.roundTripBudget}, ${verdict}.`);
  }
}

/** More than the biggest page the scale scenarios ask for (20 rows). */
const FULL_PAGE_OF_USERS = 24;

async function againstEmptyDatabase(): Promise<void> {
  const empty = await startMeasuredApp('rupeedesk_empty');
  const seeded = await startMeasuredApp('rupeedesk_seeded');
  log('Seeding 100,000 customers and 1,000,000 history rows in SQL...');
  const seeder = new pg.Client({ connectionString: seeded.databaseUrl });
  await seeder.connect();
  const started = Date.now();
  await seeder.query(fs.readFileSync(path.resolve('bench', 'seed-scale.sql'), 'utf8'));
  log(`  seeded in ${Math.round((Date.now() - started) / 1000)} s`);
  const emptyFixture = await prepareApp(empty.server.origin, empty.databaseUrl, log);
  const seededFixture = await prepareApp(seeded.server.origin, seeded.databaseUrl, log);
  log('Vacuuming and analysing both databases...');
  await seeder.query('vacuum analyze');
  await seeder.end();
  const emptyClient = new pg.Client({ connectionString: empty.databaseUrl });
  await emptyClient.connect();
  // A page of customers named Kumar, so that on the empty database too the user list and the search
  // for "kumar" answer a full page, as on the seeded one: the ratio then compares the same answer.
  await emptyClient.query(`
    with fillers as (
      insert into users (email, password_hash)
      select 'page-filler-' || i || '@example.com', 'not-a-real-hash' from generate_series(1, ${FULL_PAGE_OF_USERS}) as i
      returning id)
    insert into profiles (user_id, name, phone, role, vip_level, referral_code)
    select id, 'Page Filler Kumar', '+9188' || lpad(row_number() over ()::text, 8, '0'), 'user', 'normal', 'FILLR' || lpad(row_number() over ()::text, 5, '0')
    from fillers`);
  await emptyClient.query('vacuum analyze');
  await emptyClient.end();

  const scenarios: Scenario[] = [
    get('history, first page', `/api/transactions?limit=${HISTORY_PAGE_SIZE}`, 'customer'),
    get('history, deep page (9th)', `/api/transactions?limit=${HISTORY_PAGE_SIZE}&cursor={deepCursor}`, 'customer'),
    get('admin user search, name (many)', '/api/admin/users?q=kumar', 'admin'),
    get('admin user search, e-mail (1 match)', '/api/admin/users?q=customer-054321', 'admin'),
    get('admin user search, phone (1 match)', '/api/admin/users?q=7000055146', 'admin'),
    get('admin users, first page', '/api/admin/users', 'admin'),
    get('admin queue: deposits pending', '/api/admin/deposits?status=pending', 'admin'),
    get('admin queue: withdrawals pending', '/api/admin/withdrawals?status=pending', 'admin'),
    get('admin queue: transfers pending', '/api/admin/transfers?status=pending', 'admin'),
    get('admin dashboard', '/api/admin/dashboard', 'admin'),
    get('wallet summary', '/api/wallet/summary', 'customer'),
    get('GET /api/me', '/api/me', 'customer'),
  ].filter((scenario) => endpointFilter === undefined || endpointFilter.some((part) => scenario.name.toLowerCase().includes(part)));
  log('Counting SQL round trips per request and warming up...');
  const roundTrips = new Map<string, string>();
  for (const scenario of scenarios) {
    const onEmpty = await countRoundTrips(scenario.target(emptyFixture), statistics, 'rupeedesk_empty');
    const onSeeded = await countRoundTrips(scenario.target(seededFixture), statistics, 'rupeedesk_seeded');
    roundTrips.set(scenario.name, onEmpty === onSeeded ? onEmpty.toFixed(1) : `${onEmpty.toFixed(1)} / ${onSeeded.toFixed(1)}`);
    await warmUp(scenario.target(emptyFixture));
    await warmUp(scenario.target(seededFixture));
  }
  log(`Measuring: ${rounds} rounds of ${seconds} s per request, ${connections} connections, empty and seeded back to back...`);
  const rows: string[][] = [];
  for (const scenario of scenarios) {
    log(`  ${scenario.name}`);
    const samples = await interleaved(scenario.target(emptyFixture), scenario.target(seededFixture));
    const ratios = samples.b.map((sample, round) => sample.requestsPerSecond / (samples.a[round]?.requestsPerSecond ?? Number.NaN));
    rows.push([
      scenario.name,
      formatRate(median(samples.a.map((sample) => sample.requestsPerSecond))),
      formatRate(median(samples.b.map((sample) => sample.requestsPerSecond))),
      ratioText(ratios),
      String(median(samples.a.map((sample) => sample.p99Milliseconds))),
      String(median(samples.b.map((sample) => sample.p99Milliseconds))),
      `${median(samples.a.map((sample) => sample.postgresCpuMillisecondsPerRequest)).toFixed(2)} / ${median(samples.b.map((sample) => sample.postgresCpuMillisecondsPerRequest)).toFixed(2)}`,
      roundTrips.get(scenario.name) ?? '',
      failures([...samples.a, ...samples.b]),
    ]);
  }
  console.log('');
  printTable(
    [
      'request',
      'empty req/s',
      'seeded req/s',
      'seeded/empty median (min-max)',
      'p99 ms empty',
      'p99 ms seeded',
      'PG CPU ms/req empty / seeded',
      'SQL round trips',
      'non-2xx',
    ],
    rows,
  );
  console.log(`\n${rounds} rounds x ${seconds} s, ${connections} connections, ${os.cpus().length} CPUs; seeded: 100,000 customers, 1,000,000 history rows.`);
}

/** One customer's burst of withdrawals beside a bystander's reads, on an app of its own (see bench/burst.ts). */
async function oneCustomersBurst(): Promise<void> {
  const { server, databaseUrl } = await startMeasuredApp('rupeedesk_burst');
  const fixture = await prepareApp(server.origin, databaseUrl, log);
  log(`Measuring one customer's burst: ${burstAttempts} withdrawal attempts at once while another customer reads /api/me...`);
  await measureOneCustomersBurst(
    { origin: fixture.origin, burster: fixture.burster, bystanderCookie: fixture.bystanderCookie, attempts: burstAttempts, rounds, baselineReads: 200 },
    log,
  );
}

async function lighthouseOfLandingAndLogin(): Promise<void> {
  const { server } = await startMeasuredApp('rupeedesk_lighthouse');
  const reportDirectory = option('lighthouse-reports');
  await reportLighthouse(server.origin, ['/', '/login'], log, reportDirectory === undefined ? undefined : path.resolve(reportDirectory));
}

/** The chain follower beside a bare loop fetching the same logs, on a database of its own (see bench/follower.ts). */
async function followerAgainstBareLoop(): Promise<void> {
  log('Measuring the chain follower against a bare loop fetching the same logs...');
  const options = { rounds, blocksPerRound: followerBlocks, transfersPerBlock: 200, customerTransfersPerBlock: followerCredits };
  await measureFollower({ databaseUrl: await createDatabase('rupeedesk_follower'), ...options }, log);
}

try {
  if (followerOnly) await followerAgainstBareLoop();
  else if (scale) await againstEmptyDatabase();
  else if (lighthouseOnly) await lighthouseOfLandingAndLogin();
  else if (only === 'burst') await oneCustomersBurst();
  else {
    await againstBaselines();
    if (!skipBurst) await oneCustomersBurst();
    if (!skipLighthouse) await lighthouseOfLandingAndLogin();
    if (!skipFollower) await followerAgainstBareLoop();
  }
} finally {
  await cleanUp();
}
