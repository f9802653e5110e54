import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers helmet would set, computed once at start. @fastify/helmet builds a new
 * helmet middleware for every request (about 3 % of a simple request's time); these headers do not
 * depend on the request, so the app sets this fixed list instead.
 */
export function computeSecurityHeaders(options: HelmetOptions): ReadonlyArray<readonly [string, string]> {
  // By lower-case name, keeping the name as helmet spells it.
  const headers = new Map<string, readonly [string, string]>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), [name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return [...headers.values()];
}
