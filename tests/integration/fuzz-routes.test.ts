import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STREAM_PATH } from '#shared/contracts/events';
import { errorResponseSchema } from '#shared/errors';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { TEST_ORIGIN, call, createTestApp, signUpVerifiedUser, type TestApp } from '../fixtures/test-app.ts';

/*
 * Walks every operation of the OpenAPI document with generated bad input (NUL,
 * bidi overrides, invisible characters, lone surrogates, undecodable escapes,
 * huge strings, wrong types) in the path, the query string and the body, as an
 * anonymous visitor, a customer and an admin, and requires of every answer: no
 * 5xx, and every error in the `{"error":{"code","message"}}` shape without the
 * input echoed. A fixed seed keeps runs repeatable; the case count keeps it to
 * a few seconds.
 */

const MARKER = 'FUZZMARK';
const BAD_STRINGS = [
  `${MARKER}\u0000`,
  `a\u0000b${MARKER}`,
  `\u202E${MARKER}`,
  `${MARKER}\u200B`,
  `\u2066${MARKER}\u2069`,
  `${MARKER}\uD800`,
  `\uFEFF${MARKER}`,
  `${MARKER}\r\n\t`,
  `${MARKER}'; drop table users; --`,
  `${MARKER}${'x'.repeat(5_000)}`,
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '',
  ' ',
  '../../etc/passwd',
  '😀😀',
];
const BAD_VALUES: unknown[] = [null, true, Number.MAX_SAFE_INTEGER * 1024, -1, 1.5, [], {}, [MARKER], { nested: { deeper: [MARKER] } }];
const BAD_PATH_SEGMENTS = [
  '%ZZ',
  '%00',
  '%E2%80%AE',
  encodeURIComponent(`${MARKER}\u0000`),
  'a'.repeat(600),
  '00000000-0000-0000-0000-000000000000',
  '..%2F..',
  '-1',
];
const CASES_PER_OPERATION = 30;

interface Operation {
  method: string;
  path: string;
  pathParameters: string[];
  queryParameters: string[];
  bodyProperties: string[];
  hasBody: boolean;
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function randomSource(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T, chance: (probability: number) => next() < probability };
}

function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const operation = raw as {
        parameters?: { in: string; name: string }[];
        requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
      };
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParameters: (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        queryParameters: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        bodyProperties: Object.keys(bodySchema?.properties ?? {}),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return operations;
}

/** A lone surrogate has no UTF-8 form: it goes out as the bytes a careless client would send. */
function encodeQueryValue(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return `%ED%A0%80${MARKER}`;
  }
}

let harness: TestApp;
let customerCookie: string;
let adminCookie: string;
beforeAll(async () => {
  harness = await createTestApp();
  customerCookie = (await signUpVerifiedUser(harness.app)).cookie;
  const admin = await signUpAdminWithVerifiedPin(harness);
  await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: admin.pin }, cookie: admin.cookie });
  adminCookie = admin.cookie;
});
afterAll(async () => harness.close());

describe('fuzzing every route of the OpenAPI document', () => {
  it('never answers 5xx, and every error is in the shared shape without echoing the input', async () => {
    const document = harness.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(30);
    const random = randomSource(20261123);
    const failures: string[] = [];
    let requests = 0;

    for (const operation of operations) {
      for (let index = 0; index < CASES_PER_OPERATION; index += 1) {
        const caller = [undefined, customerCookie, adminCookie][index % 3];
        // Signing out would end the session the following cases use.
        if (operation.path === '/api/auth/logout' && caller !== undefined) continue;
        // A live-update stream stays open by design: its input is a session only (tests/integration/events.test.ts).
        if (operation.path === EVENT_STREAM_PATH) continue;
        let url = operation.path;
        for (const name of operation.pathParameters) url = url.replace(`{${name}}`, random.pick(BAD_PATH_SEGMENTS));
        const query = operation.queryParameters
          .filter(() => random.chance(0.7))
          .map((name) => `${encodeURIComponent(name)}=${encodeQueryValue(random.pick(BAD_STRINGS))}`);
        if (query.length > 0) url += `?${query.join('&')}`;

        let payload: string | undefined;
        if (operation.hasBody || operation.method !== 'GET') {
          if (operation.bodyProperties.length === 0 || random.chance(0.15)) {
            payload = random.pick([JSON.stringify(random.pick(BAD_VALUES)), JSON.stringify(random.pick(BAD_STRINGS)), '{"unterminated": "', '']);
          } else {
            const body: Record<string, unknown> = {};
            for (const property of operation.bodyProperties) {
              body[property] = random.chance(0.6) ? random.pick(BAD_STRINGS) : random.pick(BAD_VALUES);
            }
            payload = JSON.stringify(body);
          }
        }

        const response = await harness.app.inject({
          method: operation.method as 'GET',
          url,
          headers: {
            origin: TEST_ORIGIN,
            ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(caller ? { cookie: caller } : {}),
          },
          ...(payload !== undefined ? { payload } : {}),
        });
        requests += 1;
        const label = `${operation.method} ${url.slice(0, 120)} ${payload?.slice(0, 120) ?? ''} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (response.statusCode >= 500) {
          failures.push(`5xx: ${label}`);
          continue;
        }
        if (response.statusCode >= 400) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(response.body);
          } catch {
            failures.push(`not JSON: ${label}`);
            continue;
          }
          if (!errorResponseSchema.strict().safeParse(parsed).success) failures.push(`shape: ${label}`);
          if (response.body.includes(MARKER)) failures.push(`echoes input: ${label}`);
        }
      }
    }
    expect(requests).toBeGreaterThan(1_000);
    console.log(`fuzz: ${requests} requests over ${operations.length} operations`);
    expect(failures.slice(0, 20)).toEqual([]);
  }, 120_000);
});
