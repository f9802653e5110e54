import { usePublicSettings } from './public-settings.ts';
import { supportChatUrl } from './support-chat-url.ts';

/** The chat link built from the stored support number, or undefined while unknown or unset. */
export function useSupportLink(): string | undefined {
  const settings = usePublicSettings();
  return settings.data ? supportChatUrl(settings.data.whatsappSupportNumber) : undefined;
}
