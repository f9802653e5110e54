import { describe, expect, it } from 'vitest';
import { ConfigurationError, loadConfig } from '../../src/server/env.ts';

describe('SUPPORT_EMAIL', () => {
  it('defaults to the address of MAIL_FROM, with or without a display name', () => {
    expect(loadConfig({}).supportEmail).toBe('no-reply@rupeedesk.local');
    expect(loadConfig({ MAIL_FROM: 'Rupeedesk <desk@example.com>' }).supportEmail).toBe('desk@example.com');
    expect(loadConfig({ MAIL_FROM: 'desk@example.com' }).supportEmail).toBe('desk@example.com');
  });

  it('is taken as given, and refused when it is not an e-mail address', () => {
    expect(loadConfig({ SUPPORT_EMAIL: 'support@example.com' }).supportEmail).toBe('support@example.com');
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not-an-address' })).toThrow(ConfigurationError);
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not-an-address' })).toThrow(
      'Invalid configuration: SUPPORT_EMAIL must be an e-mail address (got "not-an-address")',
    );
  });
});
