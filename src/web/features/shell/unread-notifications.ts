import { useQuery } from '@tanstack/react-query';
import { unreadCountResponseSchema } from '#shared/contracts/notifications';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

/**
 * The header's bell reads the number of unread notifications; the notifications feature refreshes it after marking
 * them read. Under the wallet prefix, so the live wallet.updated event that a new notification sends refreshes it.
 */
export const UNREAD_NOTIFICATIONS_QUERY_KEY = [...QUERY_KEYS.wallet, 'notifications', 'unread'] as const;

export function useUnreadNotificationCount() {
  return useQuery({
    queryKey: UNREAD_NOTIFICATIONS_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest('/api/notifications/unread-count', unreadCountResponseSchema, { signal }),
  });
}
