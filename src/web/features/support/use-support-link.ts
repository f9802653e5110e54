import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { supportChatUrl } from '../../lib/utils.ts';

const supportSettingsSchema = z.looseObject({ whatsappSupportNumber: z.string() });

/** The chat link built from the stored support number, or undefined while unknown or unset. */
export function useSupportLink(): string | undefined {
  const settings = useQuery({
    queryKey: [...QUERY_KEYS.publicSettings, 'support'],
    queryFn: () => apiRequest('/api/settings/public', supportSettingsSchema),
    staleTime: 5 * 60_000,
    retry: false,
  });
  return settings.data ? supportChatUrl(settings.data.whatsappSupportNumber) : undefined;
}
