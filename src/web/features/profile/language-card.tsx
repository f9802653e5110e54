import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { setLanguageResponseSchema, type Me } from '#shared/contracts/auth';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LanguageSelect } from '../../components/ui/language-select.tsx';
import { apiRequest } from '../../lib/api.ts';
import { translate, useTranslation, type Language } from '../../lib/i18n/i18n.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';

const KEEP_LANGUAGE = [...QUERY_KEYS.me, 'language'];

/** The language of the screens and e-mails: switched on this device at once, and kept with the account. */
export function LanguageCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const keep = useMutation({
    mutationKey: KEEP_LANGUAGE,
    mutationFn: (language: Language) => apiRequest('/api/me/language', setLanguageResponseSchema, { method: 'PUT', body: { language } }),
    onSuccess: (answer) => queryClient.setQueryData<Me | null>(QUERY_KEYS.me, (me) => (me ? { ...me, language: answer.language } : me)),
    onError: (error) => void endOfSession(error),
  });
  // A change of language draws the page anew, this card included: the save's outcome is read from the mutation
  // cache, which outlives it, and a failure is said once, at the select (issue 33, item 8), until a choice is kept.
  const notSaved = useMutationState({ filters: { mutationKey: KEEP_LANGUAGE }, select: (mutation) => mutation.state.status }).at(-1) === 'error';

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.languageTitle')}</CardTitle>
        <CardDescription>{t('profile.languageDescription')}</CardDescription>
      </CardHeader>
      <CardContent>
        <LanguageSelect onChosen={(language) => keep.mutate(language)} error={notSaved ? translate('profile.languageNotSaved') : undefined} />
      </CardContent>
    </Card>
  );
}
