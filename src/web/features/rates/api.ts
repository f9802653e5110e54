import { useQuery } from '@tanstack/react-query';
import { parseRatePaise } from '#shared/money-core';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

/** Shown, with the Fallback badge, only when the rates cannot be loaded; never used for an amount the server computes. */
export const FALLBACK_RATES = { normalRatePaise: 8500n, vipRatePaise: 8650n } as const;

export interface DisplayRates {
  normalRatePaise: bigint;
  vipRatePaise: bigint;
  fallback: boolean;
}

const settingsContracts = () => import('#shared/contracts/settings');

export const fetchRates = () => apiRequest('/api/rates', async () => (await settingsContracts()).ratesResponseSchema);

function ratePaiseOf(wire: string): bigint {
  const parsed = parseRatePaise(wire);
  if (!parsed.ok) throw new Error(`Malformed rate from server: ${wire}`);
  return parsed.value;
}

/**
 * The Standard and VIP rates: the stored ones, the fallback ones when loading
 * failed, or undefined while the first answer is on its way.
 */
export function useDisplayRates() {
  const query = useQuery({ queryKey: QUERY_KEYS.rates, queryFn: fetchRates, staleTime: 60_000 });
  let rates: DisplayRates | undefined;
  if (query.data) rates = { normalRatePaise: ratePaiseOf(query.data.normalRate), vipRatePaise: ratePaiseOf(query.data.vipRate), fallback: false };
  else if (query.isError) rates = { ...FALLBACK_RATES, fallback: true };
  return { rates, query };
}
