import { describe, expect, it } from 'vitest';
import { DEFAULT_IFSC_API_URL, loadConfig } from '../../src/server/env.ts';
import { configurationProblemsOf } from '../fixtures/configuration.ts';

describe('IFSC_API_URL (decision 067)', () => {
  it('is the public IFSC API by default, another URL without its trailing slash, or off', () => {
    expect(loadConfig({}).ifscApiUrl).toBe(DEFAULT_IFSC_API_URL);
    expect(loadConfig({ IFSC_API_URL: 'http://127.0.0.1:9997/ifsc/' }).ifscApiUrl).toBe('http://127.0.0.1:9997/ifsc');
    expect(loadConfig({ IFSC_API_URL: 'off' }).ifscApiUrl).toBeUndefined();
  });

  it('is refused at start-up when it is neither an http(s) URL nor off', () => {
    const problem = (value: string) => `Invalid configuration: IFSC_API_URL must be an http:// or https:// URL of the IFSC API, or off (got "${value}")`;
    expect(configurationProblemsOf({ IFSC_API_URL: 'ftp://example.test' })).toEqual([problem('ftp://example.test')]);
    expect(configurationProblemsOf({ IFSC_API_URL: 'no' })).toEqual([problem('no')]);
  });
});
