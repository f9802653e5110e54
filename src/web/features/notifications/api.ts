import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { okResponseSchema } from '#shared/contracts/common';
import { notificationListResponseSchema, notificationPreferencesResponseSchema, type NotificationPreferences } from '#shared/contracts/notifications';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { UNREAD_NOTIFICATIONS_QUERY_KEY } from '../shell/index.ts';

/** Under the wallet prefix, so the live wallet.updated event that a new notification sends refreshes them. */
export const NOTIFICATION_QUERY_KEYS = {
  unreadCount: UNREAD_NOTIFICATIONS_QUERY_KEY,
  list: [...QUERY_KEYS.wallet, 'notifications', 'list'],
  preferences: [...QUERY_KEYS.wallet, 'notifications', 'preferences'],
} as const;

export function useNotifications() {
  return useQuery({
    queryKey: NOTIFICATION_QUERY_KEYS.list,
    queryFn: ({ signal }) => apiRequest('/api/notifications?limit=50', notificationListResponseSchema, { signal }),
  });
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await apiRequest('/api/notifications/read', okResponseSchema, { method: 'POST', body: {} });
    await queryClient.invalidateQueries({ queryKey: NOTIFICATION_QUERY_KEYS.unreadCount });
  }, [queryClient]);
}

export function useNotificationPreferences() {
  return useQuery({
    queryKey: NOTIFICATION_QUERY_KEYS.preferences,
    queryFn: ({ signal }) => apiRequest('/api/notification-preferences', notificationPreferencesResponseSchema, { signal }),
  });
}

export const saveNotificationPreferences = (preferences: NotificationPreferences) =>
  apiRequest('/api/notification-preferences', notificationPreferencesResponseSchema, { method: 'PUT', body: preferences });
