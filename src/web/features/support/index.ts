/** What other features may use of the support feature: the public settings and the link to the support chat. */
export { usePublicSettings } from './public-settings.ts';
export { supportChatUrl } from './support-chat-url.ts';
export { useSupportLink } from './use-support-link.ts';
