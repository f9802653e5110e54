import { describe, expect, it } from 'vitest';
import { signupFormSchema, signupRequestSchema } from '#shared/contracts/auth';
import { changePinFormSchema, isWeakPin, sanitizePinInput, SAME_PIN_MESSAGE, WEAK_PIN_MESSAGE } from '#shared/contracts/pin';
import { maskPhone, safeNextPath, supportChatUrl } from '../../src/web/lib/utils.ts';
import { signupErrorText } from '../../src/web/features/auth/signup-page.tsx';

describe('sign-up contract', () => {
  const valid = { fullName: 'A', email: 'a@b.co', phone: '+91 98765-43210', password: 'secret', pin: '2957' };

  it('normalizes the phone and upper-cases the referral code', () => {
    const parsed = signupRequestSchema.parse({ ...valid, referralCode: 'rupeeab123' });
    expect(parsed.phone).toBe('+919876543210');
    expect(parsed.referralCode).toBe('RUPEEAB123');
  });

  it('treats an empty referral code as none', () => {
    expect(signupRequestSchema.parse({ ...valid, referralCode: '' }).referralCode).toBeUndefined();
  });

  it('asks to confirm the password, and for a match', () => {
    const missing = signupFormSchema.safeParse({ ...valid, confirmPassword: '' });
    expect(missing.error?.issues.map((issue) => issue.message)).toContain('Please confirm your password');
    const mismatch = signupFormSchema.safeParse({ ...valid, confirmPassword: 'other' });
    expect(mismatch.error?.issues.map((issue) => issue.message)).toContain('Passwords do not match');
  });
});

describe('PIN inputs', () => {
  it('keep digits only, at most four', () => {
    expect(sanitizePinInput('1a2b3c4d5')).toBe('1234');
  });

  it('check the change-PIN rules in the spec order', () => {
    const messages = (values: Record<string, string>) => changePinFormSchema.safeParse(values).error?.issues.map((issue) => issue.message) ?? [];
    expect(messages({ currentPin: '', newPin: '1234', confirmPin: '1234' })).toContain('All fields are required');
    expect(messages({ currentPin: '1111', newPin: '1234', confirmPin: '1235' })).toContain("New PIN and confirmation don't match");
    expect(messages({ currentPin: '1111', newPin: '123', confirmPin: '123' })).toContain('PIN must be 4 digits');
    expect(messages({ currentPin: '1111', newPin: '2345', confirmPin: '2345' })).toEqual([WEAK_PIN_MESSAGE]);
    expect(messages({ currentPin: '4829', newPin: '4829', confirmPin: '4829' })).toEqual([SAME_PIN_MESSAGE]);
    expect(messages({ currentPin: '1111', newPin: '4829', confirmPin: '4829' })).toEqual([]);
  });

  it('call weak exactly one digit four times and straight runs up or down', () => {
    const weak = [...Array(10000).keys()].map((value) => String(value).padStart(4, '0')).filter(isWeakPin);
    expect(weak).toEqual([
      '0000',
      '0123',
      '1111',
      '1234',
      '2222',
      '2345',
      '3210',
      '3333',
      '3456',
      '4321',
      '4444',
      '4567',
      '5432',
      '5555',
      '5678',
      '6543',
      '6666',
      '6789',
      '7654',
      '7777',
      '8765',
      '8888',
      '9876',
      '9999',
    ]);
    expect(isWeakPin('4829')).toBe(false);
    expect(isWeakPin('1235')).toBe(false);
    expect(isWeakPin('9012')).toBe(false);
  });
});

describe('display helpers', () => {
  it('masks phones longer than 7 characters', () => {
    expect(maskPhone('+919876543210')).toBe('+91****3210');
    expect(maskPhone('+123456')).toBe('+123456');
  });

  it('only allows same-site post-login destinations', () => {
    expect(safeNextPath('/wallet?tab=1')).toBe('/wallet?tab=1');
    expect(safeNextPath('//evil.example')).toBe('/dashboard');
    expect(safeNextPath('https://evil.example')).toBe('/dashboard');
    expect(safeNextPath(null)).toBe('/dashboard');
  });

  it('refuses destinations with tabs, line breaks or backslashes, which browsers turn into other hosts', () => {
    expect(safeNextPath('/\t/evil.example')).toBe('/dashboard');
    expect(safeNextPath('/\n/evil.example')).toBe('/dashboard');
    expect(safeNextPath('/\r\n/evil.example')).toBe('/dashboard');
    expect(safeNextPath('/a\\b')).toBe('/dashboard');
    expect(safeNextPath('/wallet/withdraw')).toBe('/wallet/withdraw');
  });

  it('builds the support chat link without spaces', () => {
    expect(supportChatUrl('+91 98765 43210')).toBe('https://wa.me/919876543210');
    expect(supportChatUrl('  ')).toBeUndefined();
  });

  it('maps sign-up failures to the spec texts', () => {
    expect(signupErrorText('Email already in use')).toBe('This email is already registered. Please log in instead.');
    expect(signupErrorText('Invalid phone')).toBe('Phone number error: Invalid phone');
    expect(signupErrorText('Database error saving user')).toContain('Database error: Please ensure your phone number');
    expect(signupErrorText('')).toBe('An error occurred during signup. Please try again.');
  });
});
