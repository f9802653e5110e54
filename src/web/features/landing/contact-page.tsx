import { usePublicSettings, supportChatUrl } from '../support/index.ts';
import { outlineLinkClass, primaryLinkClass } from '../../components/ui/link-classes.ts';
import { PublicTextPage } from './public-layout.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

export default function ContactPage() {
  const settings = usePublicSettings();
  const supportLink = settings.data ? supportChatUrl(settings.data.whatsappSupportNumber) : undefined;
  const website = settings.data?.websiteUrl;

  return (
    <PublicTextPage title={t('home.contactUs')}>
      <p>{t('legal.contactText')}</p>
      {settings.isPending && <p className="text-slate-500">{t('legal.loadingContact')}</p>}
      {settings.isError && <p className="text-red-600">{t('legal.contactFailed')}</p>}
      {settings.data && (
        <div className="flex flex-wrap gap-3">
          {supportLink ? (
            <a href={supportLink} target="_blank" rel="noopener noreferrer" className={`${primaryLinkClass} h-11`}>
              {t('home.chatWithSupport')}
            </a>
          ) : (
            <p className="text-slate-500">{t('legal.noSupportChat')}</p>
          )}
          {website && (
            <a href={website} target="_blank" rel="noopener noreferrer" className={`${outlineLinkClass} h-11`}>
              {t('legal.visitWebsite')}
            </a>
          )}
        </div>
      )}
    </PublicTextPage>
  );
}
