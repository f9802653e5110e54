import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { setLanguageResponseSchema, type Me } from '#shared/contracts/auth';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LanguageSelect } from '../../components/ui/language-select.tsx';
import { apiRequest } from '../../lib/api.ts';
import { useTranslation, type Language } from '../../lib/i18n/i18n.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';

/**
 * Whether the last save of the language to the account failed. A change of language renders the page anew
 * (routes.tsx) before the save has answered, so the outcome is kept beside the card rather than in its state; a
 * small store of its own, because react-query's mutation state would add to the landing page's framework chunk.
 */
let lastSaveFailed = false;
const saveListeners = new Set<() => void>();
function recordSaveOutcome(failed: boolean): void {
  lastSaveFailed = failed;
  for (const listener of saveListeners) listener();
}
function subscribeToSaves(listener: () => void): () => void {
  saveListeners.add(listener);
  return () => saveListeners.delete(listener);
}

/**
 * The language of the screens and e-mails: switched on this device at once, and kept with the account. A failure to
 * keep it is said once, in the card under the choice (decision 055), until the next choice.
 */
export function LanguageCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const saveFailed = useSyncExternalStore(subscribeToSaves, () => lastSaveFailed);
  const keepWithAccount = async (language: Language) => {
    recordSaveOutcome(false);
    try {
      const answer = await apiRequest('/api/me/language', setLanguageResponseSchema, { method: 'PUT', body: { language } });
      queryClient.setQueryData<Me | null>(QUERY_KEYS.me, (me) => (me ? { ...me, language: answer.language } : me));
    } catch (error) {
      if (endOfSession(error)) return;
      recordSaveOutcome(true);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.languageTitle')}</CardTitle>
        <CardDescription>{t('profile.languageDescription')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <LanguageSelect onChosen={(language) => void keepWithAccount(language)} />
        <ActionError message={saveFailed ? t('profile.languageNotSaved') : undefined} />
      </CardContent>
    </Card>
  );
}
