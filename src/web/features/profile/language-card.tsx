import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { setLanguageResponseSchema, type Me } from '#shared/contracts/auth';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LanguageSelect } from '../../components/ui/language-select.tsx';
import { apiRequest } from '../../lib/api.ts';
import { translate, useTranslation, type Language } from '../../lib/i18n/i18n.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';

/** The language of the screens and e-mails: switched on this device at once, and kept with the account. */
export function LanguageCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();

  const keepWithAccount = async (language: Language) => {
    try {
      const answer = await apiRequest('/api/me/language', setLanguageResponseSchema, { method: 'PUT', body: { language } });
      queryClient.setQueryData<Me | null>(QUERY_KEYS.me, (me) => (me ? { ...me, language: answer.language } : me));
    } catch (error) {
      if (endOfSession(error)) return;
      toast.error(translate('profile.languageNotSaved'));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.languageTitle')}</CardTitle>
        <CardDescription>{t('profile.languageDescription')}</CardDescription>
      </CardHeader>
      <CardContent>
        <LanguageSelect onChosen={(language) => void keepWithAccount(language)} />
      </CardContent>
    </Card>
  );
}
