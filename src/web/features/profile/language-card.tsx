import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { setLanguageResponseSchema, type Me } from '#shared/contracts/auth';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LanguageSelect } from '../../components/ui/language-select.tsx';
import { apiRequest } from '../../lib/api.ts';
import { useTranslation, type Language } from '../../lib/i18n/i18n.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';

/**
 * The saves of the language to the account. A change of language renders the page anew (routes.tsx), before the save
 * has answered, so the card reads the last save's outcome from the client's cache rather than from its own state.
 */
const KEEP_LANGUAGE_KEY = ['keep-language'] as const;

/**
 * The language of the screens and e-mails: switched on this device at once, and kept with the account. A failure to
 * keep it is said once, in the card under the choice (decision 055), until the next choice.
 */
export function LanguageCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const keepWithAccount = useMutation({
    mutationKey: KEEP_LANGUAGE_KEY,
    mutationFn: (language: Language) => apiRequest('/api/me/language', setLanguageResponseSchema, { method: 'PUT', body: { language } }),
    onSuccess: (answer) => queryClient.setQueryData<Me | null>(QUERY_KEYS.me, (me) => (me ? { ...me, language: answer.language } : me)),
    onError: (error) => void endOfSession(error),
  });
  const lastOutcome = useMutationState({ filters: { mutationKey: KEEP_LANGUAGE_KEY }, select: (mutation) => mutation.state.status }).at(-1);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.languageTitle')}</CardTitle>
        <CardDescription>{t('profile.languageDescription')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <LanguageSelect onChosen={(language) => keepWithAccount.mutate(language)} />
        <ActionError message={lastOutcome === 'error' ? t('profile.languageNotSaved') : undefined} />
      </CardContent>
    </Card>
  );
}
