import { describe, expect, it } from 'vitest';
import { ConfigurationError, loadConfig } from '../../src/server/env.ts';

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
    return [];
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
}

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', appOrigin: 'http://localhost:3000', databaseUrl: undefined, smtpUrl: undefined });
    expect(config.dataDirectory.endsWith('/data')).toBe(true);
  });

  it('derives the origin from the port and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).appOrigin).toBe('http://localhost:8080');
    expect(loadConfig({ APP_ORIGIN: 'https://wallet.example.com/' }).appOrigin).toBe('https://wallet.example.com');
  });

  it('reports every bad variable on its own line, naming it', () => {
    const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'mysql://x', APP_ORIGIN: 'https://a.example/path', SMTP_URL: 'http://mail', ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'short' });
    expect(problems).toEqual([
      'Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")',
      'Invalid configuration: DATABASE_URL must be a postgres:// URL',
      'Invalid configuration: APP_ORIGIN must be an origin only (scheme, host and port, no path) (got "https://a.example/path")',
      'Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL',
      'Invalid configuration: ADMIN_EMAIL must be an e-mail address (got "nope")',
      'Invalid configuration: ADMIN_PASSWORD must be 8 to 128 characters long',
    ]);
  });

  it('never echoes secrets in its messages', () => {
    const problems = problemsOf({ ADMIN_PASSWORD: 'short', DATABASE_URL: 'mysql://user:topsecret@host/db' });
    expect(problems.join('\n')).not.toContain('topsecret');
    expect(problems.join('\n')).not.toContain('short"');
  });

  it('scales the per-address rate limits only', async () => {
    expect(loadConfig({ RATE_LIMIT_SCALE: '20' }).rateLimitScale).toBe(20);
    expect(problemsOf({ RATE_LIMIT_SCALE: '0' })).toEqual(['Invalid configuration: RATE_LIMIT_SCALE must be a whole number from 1 to 1000 (got "0")']);
    const { DEFAULT_RATE_LIMITS, scaledRateLimits } = await import('../../src/server/context.ts');
    const scaled = scaledRateLimits(20);
    expect(scaled.loginPerAddress).toBe(DEFAULT_RATE_LIMITS.loginPerAddress * 20);
    expect(scaled.loginPerAccount).toBe(DEFAULT_RATE_LIMITS.loginPerAccount);
    expect(scaled.resetRequestsPerAccount).toBe(DEFAULT_RATE_LIMITS.resetRequestsPerAccount);
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'admin@example.com' })).toEqual(['Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together']);
  });

  it('reads TRUST_PROXY as a list of addresses and CIDR ranges, trusting no proxy when unset', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/8', ',']) {
      expect(problemsOf({ TRUST_PROXY: bad }), bad).toEqual([
        `Invalid configuration: TRUST_PROXY must be a comma-separated list of IP addresses or CIDR ranges of your reverse proxies, such as 10.0.0.0/8,127.0.0.1 (got "${bad}")`,
      ]);
    }
  });

  it('reads the metrics settings and never echoes the token', () => {
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '9464' })).toMatchObject({ metricsToken: 'a-long-enough-token', metricsPort: 9464 });
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual(['Invalid configuration: METRICS_TOKEN must be 16 to 256 printable characters without spaces']);
  });
});
