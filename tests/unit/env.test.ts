import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/env.ts';
import { configurationProblemsOf as problemsOf } from '../fixtures/configuration.ts';

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
    const problems = problemsOf({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      APP_ORIGIN: 'https://a.example/path',
      SMTP_URL: 'http://mail',
      ADMIN_EMAIL: 'nope',
      ADMIN_PASSWORD: 'short',
    });
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

  it('reads the security cooling-off (default 24 hours, 0 turns it off) and the API docs setting (default off)', async () => {
    expect(loadConfig({}).securityCoolingOffHours).toBe(24);
    expect(loadConfig({ SECURITY_COOLING_OFF_HOURS: '0' }).securityCoolingOffHours).toBe(0);
    expect(problemsOf({ SECURITY_COOLING_OFF_HOURS: '-1' })).toEqual([
      'Invalid configuration: SECURITY_COOLING_OFF_HOURS must be a whole number of hours from 0 to 720 (got "-1")',
    ]);
    expect(loadConfig({}).apiDocs).toBe('off');
    expect(loadConfig({ API_DOCS: 'admin' }).apiDocs).toBe('admin');
    const { DEFAULT_RATE_LIMITS, scaledRateLimits } = await import('../../src/server/context.ts');
    expect(scaledRateLimits(1000).loginSlowdownAfter).toBe(DEFAULT_RATE_LIMITS.loginSlowdownAfter);
  });

  it('slows sign-in past the account-wide ceiling, doubling up to 10 seconds', async () => {
    const { loginDelayMilliseconds } = await import('../../src/server/features/auth/service.ts');
    expect([19, 20, 21, 22, 30, 1000].map((failures) => loginDelayMilliseconds(failures, 20))).toEqual([0, 500, 1000, 2000, 10_000, 10_000]);
  });

  it('wants ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(problemsOf({ ADMIN_EMAIL: 'admin@example.com' })).toEqual(['Invalid configuration: ADMIN_EMAIL and ADMIN_PASSWORD must be set together']);
  });

  it('reads no chain by default, and each network only when its endpoint is set', () => {
    expect(loadConfig({}).chain).toEqual({ ethereum: undefined, tron: undefined, pollSeconds: 15 });
    const config = loadConfig({
      ETHEREUM_RPC_URL: 'http://127.0.0.1:8545',
      ERC20_CONFIRMATIONS: '12',
      CHAIN_POLL_SECONDS: '1',
      TRON_API_URL: 'https://tron.example.com/',
      TRON_API_KEY: 'abc-123',
    });
    expect(config.chain).toEqual({
      ethereum: { rpcUrl: 'http://127.0.0.1:8545', usdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', confirmations: 12 },
      tron: {
        fullNodeUrl: 'https://tron.example.com',
        solidityNodeUrl: 'https://tron.example.com',
        apiKey: 'abc-123',
        usdtContract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      },
      pollSeconds: 1,
    });
  });

  it('reads a self-hosted TRON node at two URLs, and fills both from one', () => {
    const twoPorts = loadConfig({ TRON_FULL_NODE_URL: 'http://10.0.0.5:8090/', TRON_SOLIDITY_NODE_URL: 'http://10.0.0.5:8091' }).chain.tron;
    expect(twoPorts).toMatchObject({ fullNodeUrl: 'http://10.0.0.5:8090', solidityNodeUrl: 'http://10.0.0.5:8091' });
    expect(loadConfig({ TRON_FULL_NODE_URL: 'https://api.trongrid.io' }).chain.tron).toMatchObject({
      fullNodeUrl: 'https://api.trongrid.io',
      solidityNodeUrl: 'https://api.trongrid.io',
    });
  });

  it('takes fewer than 12 Ethereum confirmations only from CHAIN_DEV_CONFIRMATIONS, marked as such', () => {
    const config = loadConfig({ ETHEREUM_RPC_URL: 'http://127.0.0.1:8545', CHAIN_DEV_CONFIRMATIONS: '2', ERC20_CONFIRMATIONS: '20' });
    expect(config.chain.ethereum).toEqual({
      rpcUrl: 'http://127.0.0.1:8545',
      usdtContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      confirmations: 2,
      devConfirmations: true,
    });
    expect(problemsOf({ CHAIN_DEV_CONFIRMATIONS: '0' })).toEqual([
      'Invalid configuration: CHAIN_DEV_CONFIRMATIONS must be a whole number from 1 to 1000 (got "0")',
    ]);
  });

  it('refuses bad chain settings, naming each, and never echoes the RPC URL or the API key', () => {
    const problems = problemsOf({
      ETHEREUM_RPC_URL: 'ws://user:secret@node',
      USDT_ERC20_CONTRACT: '0x123',
      ERC20_CONFIRMATIONS: '3',
      TRON_API_URL: 'ftp://x',
      TRON_API_KEY: 'has spaces',
      USDT_TRC20_CONTRACT: 'XR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      CHAIN_POLL_SECONDS: '0.5',
    });
    expect(problems).toEqual([
      'Invalid configuration: ETHEREUM_RPC_URL must be an http:// or https:// URL of an Ethereum JSON-RPC endpoint',
      'Invalid configuration: USDT_ERC20_CONTRACT must be an Ethereum address (0x followed by 40 hexadecimal characters) (got "0x123")',
      'Invalid configuration: ERC20_CONFIRMATIONS must be a whole number from 12 to 1000 (it may only make the finalized block safer; for a local chain use CHAIN_DEV_CONFIRMATIONS) (got "3")',
      'Invalid configuration: TRON_API_URL must be an http:// or https:// URL of a TRON full node HTTP API or a TronGrid-compatible service (got "ftp://x")',
      'Invalid configuration: TRON_API_KEY must be an API key of letters, digits and dashes',
      'Invalid configuration: USDT_TRC20_CONTRACT must be a TRON address (T followed by 33 base58 characters) (got "XR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")',
      'Invalid configuration: CHAIN_POLL_SECONDS must be a whole number of seconds from 1 to 3600 (got "0.5")',
    ]);
    expect(problems.join('\n')).not.toContain('secret');
  });

  it('reads TRUST_PROXY as a list of addresses and CIDR ranges, trusting no proxy when unset', () => {
    expect(loadConfig({}).trustProxy).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/8', ',']) {
      expect(problemsOf({ TRUST_PROXY: bad }), bad).toEqual([
        `Invalid configuration: TRUST_PROXY must be a comma-separated list of IP addresses or CIDR ranges of your reverse proxies, such as 10.0.0.0/8,127.0.0.1 (got "${bad}")`,
      ]);
    }
  });

  it('reads the metrics settings and never echoes the token', () => {
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token', METRICS_PORT: '9464' })).toMatchObject({
      metricsToken: 'a-long-enough-token',
      metricsPort: 9464,
    });
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual(['Invalid configuration: METRICS_TOKEN must be 16 to 256 printable characters without spaces']);
  });
});
