import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/env.ts';
import { configurationProblemsOf } from '../fixtures/configuration.ts';

describe('SMS configuration', () => {
  it('keeps text messages in the outbox when no provider is set', () => {
    expect(loadConfig({}).sms).toEqual({ provider: 'outbox' });
  });

  it('refuses a provider without its credentials, naming each missing one', () => {
    expect(configurationProblemsOf({ SMS_PROVIDER: 'msg91' })).toEqual([
      'Invalid configuration: SMS_PROVIDER=msg91 needs SMS_AUTH_KEY (see docs/decisions/041)',
      'Invalid configuration: SMS_PROVIDER=msg91 needs SMS_TEMPLATE_ID (see docs/decisions/041)',
    ]);
    expect(configurationProblemsOf({ SMS_PROVIDER: 'twilio', SMS_FROM: '+15005550006' })).toEqual([
      'Invalid configuration: SMS_PROVIDER=twilio needs SMS_ACCOUNT_SID (see docs/decisions/041)',
      'Invalid configuration: SMS_PROVIDER=twilio needs SMS_AUTH_TOKEN (see docs/decisions/041)',
    ]);
    expect(configurationProblemsOf({ SMS_PROVIDER: 'textlocal' })).toEqual([
      'Invalid configuration: SMS_PROVIDER must be msg91 or twilio, or unset to keep text messages in the SMS outbox (got "textlocal")',
    ]);
  });

  it('never repeats a secret in its refusal', () => {
    const problems = configurationProblemsOf({ SMS_PROVIDER: 'twilio', SMS_ACCOUNT_SID: 'AC12', SMS_AUTH_TOKEN: 'short secret', SMS_FROM: '+15005550006' });
    expect(problems.join('\n')).not.toContain('short secret');
    expect(problems.some((line) => line.startsWith('Invalid configuration: SMS_ACCOUNT_SID must be a Twilio Account SID'))).toBe(true);
  });

  it('points at the provider, or at SMS_API_URL when set', () => {
    const base = { SMS_PROVIDER: 'msg91', SMS_AUTH_KEY: 'an-auth-key-123', SMS_TEMPLATE_ID: 'template-1' };
    expect(loadConfig(base).sms).toEqual({ provider: 'msg91', apiUrl: 'https://control.msg91.com', authKey: 'an-auth-key-123', templateId: 'template-1' });
    expect(loadConfig({ ...base, SMS_API_URL: 'http://127.0.0.1:9999/' }).sms).toMatchObject({ apiUrl: 'http://127.0.0.1:9999' });
    const twilio = { SMS_PROVIDER: 'twilio', SMS_ACCOUNT_SID: `AC${'a'.repeat(32)}`, SMS_AUTH_TOKEN: 'a-twilio-auth-token', SMS_FROM: '+15005550006' };
    expect(loadConfig(twilio).sms).toMatchObject({ provider: 'twilio', apiUrl: 'https://api.twilio.com', from: '+15005550006' });
  });
});
