import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders } from '../../src/server/http/security-headers.ts';

/** What helmet itself sets on a real response. */
function headersHelmetSets(options: HelmetOptions): Record<string, unknown> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  helmet(options)(request, response, () => undefined);
  return response.getHeaders();
}

describe('security headers computed once', () => {
  for (const hsts of [false, true]) {
    it(`are exactly the headers helmet sets (HSTS ${hsts ? 'on' : 'off'})`, () => {
      const options: HelmetOptions = {
        contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], upgradeInsecureRequests: null } },
        referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
        crossOriginEmbedderPolicy: false,
        hsts,
      };
      const computed = Object.fromEntries(computeSecurityHeaders(options).map(([name, value]) => [name.toLowerCase(), value]));
      expect(computed).toEqual(headersHelmetSets(options));
      expect('strict-transport-security' in computed).toBe(hsts);
      expect(computed['content-security-policy']).toBe("default-src 'self';script-src 'self'");
    });
  }
});
