import type { AppConfig } from './env.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Mailer } from './platform/mail/mailer.ts';

/** Limits on guessing: attempts allowed per window, per client address and per account. */
export interface RateLimitSettings {
  windowSeconds: number;
  loginPerAddress: number;
  /** Wrong passwords for one account from one address; beyond it that address may not try that account. */
  loginPerAccount: number;
  /** Wrong passwords for one account from all addresses; beyond it every attempt on it waits, longer each time. */
  loginSlowdownAfter: number;
  /** Past that ceiling the account's password checks take turns; a turn further ahead than this is refused (429, decision 026). */
  loginQueueMilliseconds: number;
  pinPerAddress: number;
  resetRequestsPerAddress: number;
  resetRequestsPerAccount: number;
  signupPerAddress: number;
  /** State-changing requests one session may have in flight on one server; more answer 429 (http/in-flight-limit.ts). */
  writesInFlightPerSession: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  windowSeconds: 15 * 60,
  loginPerAddress: 30,
  loginPerAccount: 10,
  loginSlowdownAfter: 20,
  loginQueueMilliseconds: 30_000,
  pinPerAddress: 30,
  resetRequestsPerAddress: 10,
  resetRequestsPerAccount: 3,
  signupPerAddress: 20,
  writesInFlightPerSession: 4,
};

/** The limits in force: the per-address ones multiplied by RATE_LIMIT_SCALE, the per-account ones unchanged. */
export function scaledRateLimits(scale: number): RateLimitSettings {
  const limits = DEFAULT_RATE_LIMITS;
  return {
    ...limits,
    loginPerAddress: limits.loginPerAddress * scale,
    pinPerAddress: limits.pinPerAddress * scale,
    resetRequestsPerAddress: limits.resetRequestsPerAddress * scale,
    signupPerAddress: limits.signupPerAddress * scale,
  };
}

export interface SessionSettings {
  idleTimeoutSeconds: number;
  absoluteTimeoutSeconds: number;
}

export const DEFAULT_SESSION_SETTINGS: SessionSettings = {
  idleTimeoutSeconds: 30 * 60,
  absoluteTimeoutSeconds: 12 * 60 * 60,
};

/** Everything a request handler may need, built once per server process. */
export interface AppContext {
  config: AppConfig;
  database: DatabaseHandle;
  mailer: Mailer;
  rateLimits: RateLimitSettings;
  sessionSettings: SessionSettings;
}
