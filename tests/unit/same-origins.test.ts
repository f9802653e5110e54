import { describe, expect, it } from 'vitest';
import { sameOrigins } from '../../src/server/http/security.ts';

describe('the origins counted as the app', () => {
  it('are APP_ORIGIN alone when it is a public address', () => {
    expect([...sameOrigins('https://wallet.example.com')]).toEqual(['https://wallet.example.com']);
  });

  it('are every loopback spelling on the same scheme and port when APP_ORIGIN is a loopback address', () => {
    expect([...sameOrigins('http://localhost:3000')].sort()).toEqual(['http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost:3000']);
    expect([...sameOrigins('http://127.0.0.1:8080')].sort()).toEqual(['http://127.0.0.1:8080', 'http://[::1]:8080', 'http://localhost:8080']);
  });
});
