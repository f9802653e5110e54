import { usePublicSettings } from '../support/public-settings.ts';
import { supportChatUrl } from '../support/support-chat-url.ts';
import { outlineLinkClass, primaryLinkClass } from '../../components/ui/link-classes.ts';
import { PublicTextPage } from './public-layout.tsx';

export default function ContactPage() {
  const settings = usePublicSettings();
  const supportLink = settings.data ? supportChatUrl(settings.data.whatsappSupportNumber) : undefined;
  const website = settings.data?.websiteUrl;

  return (
    <PublicTextPage title="Contact Us">
      <p>Our support team answers on chat. Tell us your registered email address, never your password or PIN.</p>
      {settings.isPending && <p className="text-slate-500">Loading contact details...</p>}
      {settings.isError && <p className="text-red-600">Could not load our contact details. Please try again later.</p>}
      {settings.data && (
        <div className="flex flex-wrap gap-3">
          {supportLink ? (
            <a href={supportLink} target="_blank" rel="noopener noreferrer" className={`${primaryLinkClass} h-11`}>
              Chat with Support
            </a>
          ) : (
            <p className="text-slate-500">Support chat is not set up yet.</p>
          )}
          {website && (
            <a href={website} target="_blank" rel="noopener noreferrer" className={`${outlineLinkClass} h-11`}>
              Visit our website
            </a>
          )}
        </div>
      )}
    </PublicTextPage>
  );
}
