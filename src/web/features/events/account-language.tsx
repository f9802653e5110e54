import { useEffect } from 'react';
import { chooseLanguage, currentLanguage } from '../../lib/i18n/i18n.ts';
import { useMe } from '../../lib/session.ts';

/** Once signed in, the screens follow the language kept with the account (chosen on another device, say). */
export function AccountLanguage() {
  const language = useMe().data?.language;
  useEffect(() => {
    if (language && language !== currentLanguage()) chooseLanguage(language).catch(() => undefined);
  }, [language]);
  return null;
}
