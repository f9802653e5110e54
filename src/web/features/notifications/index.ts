/** What other features may use of the notifications feature. */
export { NotificationPreferencesCard } from './notification-preferences-card.tsx';
