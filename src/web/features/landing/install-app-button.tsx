import { outlineLinkClass } from '../../components/ui/link-classes.ts';
import { useTranslation } from '../../lib/i18n/i18n.ts';
import { listenForInstallPrompt, useInstallPrompt } from '../install/index.ts';

/** "Install app" beside the APK download, shown only while the browser offers to install the web app. */
export default function InstallAppButton() {
  const { t } = useTranslation();
  listenForInstallPrompt();
  const { canInstall, install } = useInstallPrompt();
  if (!canInstall) return null;
  return (
    <button type="button" onClick={() => void install()} className={`${outlineLinkClass} h-12 px-6 text-base`}>
      {t('install.installApp')}
    </button>
  );
}
