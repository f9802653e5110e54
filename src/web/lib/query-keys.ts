/**
 * Query-key prefixes shared by every feature, so that one live event can
 * refresh all the answers it makes stale (see the events feature).
 */
export const QUERY_KEYS = {
  /** The signed-in user, with the balance shown in the header chip. */
  me: ['me'],
  /** Rates and public settings: refreshed when an admin changes settings. */
  rates: ['rates'],
  publicSettings: ['settings', 'public'],
  /** Prefix of everything about the signed-in user's money: summary, history, pending lists, deposits, withdrawals, transfers, bank accounts, referrals. */
  wallet: ['wallet'],
  /** Prefix of every admin answer: dashboard figures, queues, users, settings, audit log. */
  admin: ['admin'],
} as const;
