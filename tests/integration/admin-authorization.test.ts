import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerFeatureRoutes } from '../../src/server/features/index.ts';
import type { ApiApp } from '../../src/server/http/types.ts';
import { KNOWN_TRON_ADDRESS } from '../fixtures/addresses.ts';
import { currentSettingsBody, fileBytes, signUpVipCustomer, uploadFile } from '../fixtures/admin.ts';
import { qrPng } from '../fixtures/qr-images.ts';
import { call, signUpUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/*
 * Every /api/admin route, called as each kind of caller. The routes are read from
 * the running app, so a new admin route without an entry here fails this file.
 */

type Caller = 'anonymous' | 'customer' | 'vip' | 'admin';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Targets {
  userId: string;
}

interface MatrixRequest {
  url: string;
  body?: unknown;
  upload?: { bytes: Buffer; contentType: string; fileName: string };
}

interface MatrixEntry {
  method: Method;
  /** The route as registered, with its :params. */
  route: string;
  request(targets: Targets): MatrixRequest | Promise<MatrixRequest>;
  /** The exact answer an admin gets; when absent, any answer that is not a refusal (401/403) nor a server error. */
  adminStatus?: number;
}

const someId = () => randomUUID();

const MATRIX: MatrixEntry[] = [
  // Dashboard, settings, files, users and audit log (this feature).
  { method: 'GET', route: '/api/admin/dashboard', request: () => ({ url: '/api/admin/dashboard' }), adminStatus: 200 },
  { method: 'GET', route: '/api/admin/settings', request: () => ({ url: '/api/admin/settings' }), adminStatus: 200 },
  {
    method: 'PUT',
    route: '/api/admin/settings',
    // The current version, read as the admin: a stale one would be refused with 409.
    request: async () => ({ url: '/api/admin/settings', body: await currentSettingsBody(harness.app, cookies.admin ?? '') }),
    adminStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/admin/files/qr/:network',
    // A picture of the TRC20 deposit address, which is all an upload may show.
    request: async () => {
      await harness.database.handle.db.execute(sql`update admin_settings set trc20_address = ${KNOWN_TRON_ADDRESS} where id = 1`);
      return { url: '/api/admin/files/qr/TRC20', upload: { bytes: await qrPng(KNOWN_TRON_ADDRESS), contentType: 'image/png', fileName: 'qr.png' } };
    },
    adminStatus: 201,
  },
  {
    method: 'POST',
    route: '/api/admin/files/apk',
    request: () => ({
      url: '/api/admin/files/apk',
      upload: { bytes: fileBytes('zip'), contentType: 'application/vnd.android.package-archive', fileName: 'app.apk' },
    }),
    adminStatus: 201,
  },
  { method: 'GET', route: '/api/admin/users', request: () => ({ url: '/api/admin/users?q=a' }), adminStatus: 200 },
  { method: 'GET', route: '/api/admin/users/:id', request: ({ userId }) => ({ url: `/api/admin/users/${userId}` }), adminStatus: 200 },
  {
    method: 'PATCH',
    route: '/api/admin/users/:id',
    request: ({ userId }) => ({ url: `/api/admin/users/${userId}`, body: { vipLevel: 'vip1' } }),
    adminStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/sessions/revoke',
    request: ({ userId }) => ({ url: `/api/admin/users/${userId}/sessions/revoke` }),
    adminStatus: 200,
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/reopen',
    request: () => ({ url: `/api/admin/users/${someId()}/reopen`, body: { reason: 'Money arrived after the close' } }),
    adminStatus: 404,
  },
  {
    method: 'GET',
    route: '/api/admin/users/:id/transactions',
    request: ({ userId }) => ({ url: `/api/admin/users/${userId}/transactions` }),
    adminStatus: 200,
  },
  { method: 'GET', route: '/api/admin/audit-log', request: () => ({ url: '/api/admin/audit-log' }), adminStatus: 200 },
  { method: 'GET', route: '/api/admin/audit-log.csv', request: () => ({ url: '/api/admin/audit-log.csv?q=a' }), adminStatus: 200 },
  {
    method: 'GET',
    route: '/api/admin/reports/tds.csv',
    request: () => ({ url: '/api/admin/reports/tds.csv?from=2026-01-01&to=2026-01-31' }),
    adminStatus: 200,
  },
  // Approval queues (deposits, withdrawals, transfers). An unknown id is enough: the role is checked before the id,
  // and an admin then gets exactly 404 for it.
  { method: 'GET', route: '/api/admin/deposits', request: () => ({ url: '/api/admin/deposits?status=pending' }), adminStatus: 200 },
  { method: 'POST', route: '/api/admin/deposits/:id/approve', request: () => ({ url: `/api/admin/deposits/${someId()}/approve`, body: {} }), adminStatus: 404 },
  { method: 'POST', route: '/api/admin/deposits/:id/reject', request: () => ({ url: `/api/admin/deposits/${someId()}/reject`, body: {} }), adminStatus: 404 },
  // Deposits whose transfer left the chain after they were credited (decision 036).
  { method: 'GET', route: '/api/admin/chain-incidents', request: () => ({ url: '/api/admin/chain-incidents' }), adminStatus: 200 },
  // Their settlement, the deposit keys and the reconciliation (decision 045); no chain endpoint here, so bad input answers first.
  {
    method: 'POST',
    route: '/api/admin/chain-incidents/:id/settle',
    request: () => ({ url: `/api/admin/chain-incidents/${someId()}/settle`, body: { resolution: 'written_off', reason: 'Checked with the exchange' } }),
    adminStatus: 404,
  },
  { method: 'GET', route: '/api/admin/withdrawals/:id/payout', request: () => ({ url: `/api/admin/withdrawals/${someId()}/payout` }), adminStatus: 404 },
  {
    method: 'POST',
    route: '/api/admin/withdrawals/:id/payout/reject',
    request: () => ({ url: `/api/admin/withdrawals/${someId()}/payout/reject`, body: { reason: 'Frozen by the compliance desk' } }),
    adminStatus: 404,
  },
  // Whether a payout provider is configured, and its stuck payouts (decision 049).
  { method: 'GET', route: '/api/admin/payouts/overview', request: () => ({ url: '/api/admin/payouts/overview' }), adminStatus: 200 },
  { method: 'GET', route: '/api/admin/kyc/pan-reviews', request: () => ({ url: '/api/admin/kyc/pan-reviews' }), adminStatus: 200 },
  {
    method: 'POST',
    route: '/api/admin/kyc/pan-reviews/:id/approve',
    request: () => ({ url: `/api/admin/kyc/pan-reviews/${someId()}/approve`, body: {} }),
    adminStatus: 400,
  },
  {
    method: 'POST',
    route: '/api/admin/kyc/pan-reviews/:id/reject',
    request: () => ({ url: `/api/admin/kyc/pan-reviews/${someId()}/reject`, body: {} }),
    adminStatus: 400,
  },
  // Asking for the photo of a waiting PAN's card (decision 066): an unknown customer is not found.
  {
    method: 'POST',
    route: '/api/admin/kyc/pan-reviews/:id/request-card',
    request: () => ({ url: `/api/admin/kyc/pan-reviews/${someId()}/request-card`, body: { reason: 'The card is needed' } }),
    adminStatus: 404,
  },
  // The KYC desk's account controls (decision 047): an unknown customer is enough; the role is checked before the id.
  { method: 'GET', route: '/api/admin/kyc/customers/:id', request: () => ({ url: `/api/admin/kyc/customers/${someId()}` }), adminStatus: 404 },
  {
    method: 'POST',
    route: '/api/admin/kyc/customers/:id/freeze',
    request: () => ({ url: `/api/admin/kyc/customers/${someId()}/freeze`, body: { reason: 'Suspicious activity' } }),
    adminStatus: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/kyc/customers/:id/unfreeze',
    request: () => ({ url: `/api/admin/kyc/customers/${someId()}/unfreeze`, body: { reason: 'Cleared' } }),
    adminStatus: 404,
  },
  {
    method: 'PUT',
    route: '/api/admin/kyc/customers/:id/risk',
    request: () => ({ url: `/api/admin/kyc/customers/${someId()}/risk`, body: { riskCategory: 'high' } }),
    adminStatus: 404,
  },
  { method: 'GET', route: '/api/admin/kyc/pan-conflicts', request: () => ({ url: '/api/admin/kyc/pan-conflicts' }), adminStatus: 200 },
  // KYC level 2 (decision 050): an unknown case or image is enough.
  { method: 'GET', route: '/api/admin/kyc/level2-reviews', request: () => ({ url: '/api/admin/kyc/level2-reviews' }), adminStatus: 200 },
  { method: 'GET', route: '/api/admin/kyc/level2-reviews/:id', request: () => ({ url: `/api/admin/kyc/level2-reviews/${someId()}` }), adminStatus: 404 },
  { method: 'GET', route: '/api/admin/kyc/images/:id', request: () => ({ url: `/api/admin/kyc/images/${someId()}` }), adminStatus: 404 },
  {
    method: 'POST',
    route: '/api/admin/kyc/level2-reviews/:id/approve',
    request: () => ({ url: `/api/admin/kyc/level2-reviews/${someId()}/approve`, body: {} }),
    adminStatus: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/kyc/level2-reviews/:id/reject',
    request: () => ({ url: `/api/admin/kyc/level2-reviews/${someId()}/reject`, body: { reason: 'Blurred' } }),
    adminStatus: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/kyc/level2-reviews/:id/request-again',
    request: () => ({ url: `/api/admin/kyc/level2-reviews/${someId()}/request-again`, body: { item: 'selfie', reason: 'Blurred' } }),
    adminStatus: 404,
  },
  { method: 'GET', route: '/api/admin/deposit-keys', request: () => ({ url: '/api/admin/deposit-keys' }), adminStatus: 200 },
  {
    method: 'POST',
    route: '/api/admin/deposit-keys',
    request: () => ({ url: '/api/admin/deposit-keys', body: { network: 'ERC20', extendedPublicKey: 'not a key' } }),
    adminStatus: 400,
  },
  { method: 'GET', route: '/api/admin/reconciliation', request: () => ({ url: '/api/admin/reconciliation?network=ERC20&limit=0' }), adminStatus: 400 },
  {
    method: 'POST',
    route: '/api/admin/reconciliation/sweep-plans',
    request: () => ({ url: '/api/admin/reconciliation/sweep-plans', body: { network: 'ERC20', threshold: 'x' } }),
    adminStatus: 400,
  },
  {
    method: 'GET',
    route: '/api/admin/reconciliation/sweep-plans/:id',
    request: () => ({ url: `/api/admin/reconciliation/sweep-plans/${someId()}` }),
    adminStatus: 404,
  },
  {
    method: 'GET',
    route: '/api/admin/reconciliation/sweep-plans/:id/csv',
    request: () => ({ url: `/api/admin/reconciliation/sweep-plans/${someId()}/csv` }),
    adminStatus: 404,
  },
  { method: 'GET', route: '/api/admin/deposits/unclaimed', request: () => ({ url: '/api/admin/deposits/unclaimed' }), adminStatus: 200 },
  {
    method: 'POST',
    route: '/api/admin/deposits/unclaimed/:id/assign',
    request: () => ({ url: `/api/admin/deposits/unclaimed/${someId()}/assign`, body: { email: 'someone@example.com', reason: 'Matched to a message' } }),
    adminStatus: 404,
  },
  { method: 'GET', route: '/api/admin/withdrawals', request: () => ({ url: '/api/admin/withdrawals?status=pending' }), adminStatus: 200 },
  {
    method: 'POST',
    route: '/api/admin/withdrawals/:id/approve',
    request: () => ({ url: `/api/admin/withdrawals/${someId()}/approve`, body: {} }),
    adminStatus: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/withdrawals/:id/reject',
    request: () => ({ url: `/api/admin/withdrawals/${someId()}/reject`, body: {} }),
    adminStatus: 404,
  },
  // Payout batches: an unknown withdrawal or batch id is enough, as above.
  {
    method: 'POST',
    route: '/api/admin/payout-batches',
    request: () => ({ url: '/api/admin/payout-batches', body: { withdrawalIds: [someId()] } }),
    adminStatus: 409,
  },
  { method: 'GET', route: '/api/admin/payout-batches', request: () => ({ url: '/api/admin/payout-batches' }), adminStatus: 200 },
  {
    method: 'GET',
    route: '/api/admin/payout-batches/candidates',
    request: () => ({ url: '/api/admin/payout-batches/candidates?bank=hdfc' }),
    adminStatus: 200,
  },
  { method: 'GET', route: '/api/admin/payout-batches/:id', request: () => ({ url: `/api/admin/payout-batches/${someId()}` }), adminStatus: 404 },
  { method: 'GET', route: '/api/admin/payout-batches/:id.csv', request: () => ({ url: `/api/admin/payout-batches/${someId()}.csv` }), adminStatus: 404 },
  {
    method: 'POST',
    route: '/api/admin/payout-batches/:id/results',
    request: () => ({ url: `/api/admin/payout-batches/${someId()}/results`, body: { rows: [{ withdrawalId: someId(), outcome: 'failed' }] } }),
    adminStatus: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/payout-batches/:id/results/preview',
    request: () => ({ url: `/api/admin/payout-batches/${someId()}/results/preview`, body: { rows: [{ withdrawalId: someId(), outcome: 'failed' }] } }),
    adminStatus: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/payout-batches/:id/cancel',
    request: () => ({ url: `/api/admin/payout-batches/${someId()}/cancel`, body: {} }),
    adminStatus: 404,
  },
  // Two-person control (decision 017): an unknown change id is enough, as above.
  { method: 'GET', route: '/api/admin/pending-changes', request: () => ({ url: '/api/admin/pending-changes' }), adminStatus: 200 },
  {
    method: 'POST',
    route: '/api/admin/pending-changes/:id/confirm',
    request: () => ({ url: `/api/admin/pending-changes/${someId()}/confirm`, body: {} }),
    adminStatus: 404,
  },
  {
    method: 'POST',
    route: '/api/admin/pending-changes/:id/discard',
    request: () => ({ url: `/api/admin/pending-changes/${someId()}/discard`, body: {} }),
    adminStatus: 404,
  },
  // Payees the bank's check did not confirm (decision 054).
  { method: 'GET', route: '/api/admin/users/:id/payees', request: () => ({ url: `/api/admin/users/${someId()}/payees` }), adminStatus: 200 },
  { method: 'GET', route: '/api/admin/payees/review', request: () => ({ url: '/api/admin/payees/review' }), adminStatus: 200 },
  { method: 'POST', route: '/api/admin/payees/:id/accept', request: () => ({ url: `/api/admin/payees/${someId()}/accept`, body: {} }), adminStatus: 404 },
  {
    method: 'POST',
    route: '/api/admin/payees/:id/reject',
    request: () => ({ url: `/api/admin/payees/${someId()}/reject`, body: { reason: 'The bank names another holder' } }),
    adminStatus: 404,
  },
  { method: 'GET', route: '/api/admin/transfers', request: () => ({ url: '/api/admin/transfers?status=pending' }), adminStatus: 200 },
  {
    method: 'POST',
    route: '/api/admin/transfers/:id/approve',
    request: () => ({ url: `/api/admin/transfers/${someId()}/approve`, body: {} }),
    adminStatus: 404,
  },
  { method: 'POST', route: '/api/admin/transfers/:id/reject', request: () => ({ url: `/api/admin/transfers/${someId()}/reject`, body: {} }), adminStatus: 404 },
];

const keyOf = (method: string, route: string) => `${method} ${route}`;

/**
 * Reads every route from Fastify's route tree (printRoutes without common
 * prefixes prints one node per line: indentation says the depth, the text the
 * path segment, and the brackets the methods served there).
 */
function registeredRoutes(app: ApiApp): Set<string> {
  const routes = new Set<string>();
  const pathAtDepth: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const marker = line.search(/[├└]── /);
    if (marker < 0) continue;
    const depth = marker / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(marker + 4));
    if (!match) continue;
    const path = (depth > 0 ? (pathAtDepth[depth - 1] ?? '') : '') + (match[1] ?? '');
    pathAtDepth[depth] = path;
    pathAtDepth.length = depth + 1;
    for (const method of (match[2] ?? '').split(',').map((item) => item.trim())) {
      if (method !== '' && method !== 'HEAD' && method !== 'OPTIONS') routes.add(keyOf(method, path));
    }
  }
  return routes;
}

const { harness, admin } = useIntegrationFile({ depositAddresses: false });
let cookies: Record<Caller, string | undefined>;
let targets: Targets;
let routes: Set<string>;

beforeAll(async () => {
  const [vip, customer, target]: SignedUpUser[] = await Promise.all([
    signUpVipCustomer(harness),
    signUpUser(harness.app, { fullName: 'Plain Customer' }),
    signUpUser(harness.app, { fullName: 'Target Customer' }),
  ]);
  cookies = { anonymous: undefined, customer: customer?.cookie, vip: vip?.cookie, admin: admin.cookie };
  targets = { userId: target?.id ?? '' };
  routes = registeredRoutes(harness.app);
});

async function send(entry: MatrixEntry, caller: Caller): Promise<LightMyRequestResponse> {
  const request = await entry.request(targets);
  const cookie = cookies[caller];
  if (request.upload) return uploadFile(harness.app, request.url, { cookie, ...request.upload });
  return call(harness.app, { method: entry.method, url: request.url, body: request.body, cookie });
}

describe('route discovery', () => {
  it('reads the registered routes, parameters and methods from the app', () => {
    expect(routes).toContain('GET /api/me');
    expect(routes).toContain('GET /api/admin/settings');
    expect(routes).toContain('PUT /api/admin/settings');
    expect(routes).toContain('PATCH /api/admin/users/:id');
    expect(routes).toContain('POST /api/admin/users/:id/sessions/revoke');
  });

  it('misses none of the routes the features register (guards the parser against a new Fastify output format)', async () => {
    const probe = Fastify().withTypeProvider<ZodTypeProvider>();
    probe.setValidatorCompiler(validatorCompiler);
    probe.setSerializerCompiler(serializerCompiler);
    const featureRoutes: string[] = [];
    probe.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') featureRoutes.push(keyOf(method, route.url));
    });
    registerFeatureRoutes(probe, harness.context);
    await probe.ready();
    await probe.close();
    expect(featureRoutes.length).toBeGreaterThan(10);
    expect(featureRoutes.filter((route) => !routes.has(route))).toEqual([]);
  });

  it('has a matrix entry for every registered /api/admin route', () => {
    const inMatrix = new Set(MATRIX.map((entry) => keyOf(entry.method, entry.route)));
    const adminRoutes = [...routes].filter((route) => route.split(' ')[1]?.startsWith('/api/admin'));
    const missing = adminRoutes.filter((route) => !inMatrix.has(route));
    expect(missing, 'admin routes without an authorization matrix entry: add them to MATRIX').toEqual([]);
  });

  it('finds every route of the matrix registered (the design names them all)', () => {
    const unregistered = MATRIX.map((entry) => keyOf(entry.method, entry.route)).filter((route) => !routes.has(route));
    expect(unregistered, 'matrix routes that the app does not serve').toEqual([]);
  });
});

describe.each(MATRIX)('$method $route', (entry) => {
  it('refuses anonymous callers with 401', async () => {
    const response = await send(entry, 'anonymous');
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('refuses customers with 403', async () => {
    const response = await send(entry, 'customer');
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  // VIP is a rate tier for customers (decision 040): no /api/admin route answers one, reads included.
  it('refuses VIP-level customers with 403', async () => {
    const response = await send(entry, 'vip');
    expect(response.statusCode, response.body).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
  });

  it('lets an admin through', async () => {
    const response = await send(entry, 'admin');
    if (entry.adminStatus !== undefined) {
      expect(response.statusCode, response.body).toBe(entry.adminStatus);
    } else {
      expect([401, 403], response.body).not.toContain(response.statusCode);
      expect(response.statusCode, response.body).toBeLessThan(500);
    }
  });
});
