import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

/** The same key the wallet pages use for the full public settings, so both share one answer. */
export const PUBLIC_SETTINGS_QUERY_KEY = [...QUERY_KEYS.publicSettings, 'full'] as const;

const settingsContracts = () => import('#shared/contracts/settings');

export const fetchPublicSettings = () => apiRequest('/api/settings/public', async () => (await settingsContracts()).publicSettingsResponseSchema);

/** Rates, support contact, website and app download, as anyone may read them. */
export function usePublicSettings() {
  return useQuery({ queryKey: PUBLIC_SETTINGS_QUERY_KEY, queryFn: fetchPublicSettings, staleTime: 60_000 });
}
