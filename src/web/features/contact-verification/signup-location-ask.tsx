import type { SignupGeolocation } from '#shared/contracts/signup-trail';
import { Button } from '../../components/ui/button.tsx';
import { useBrowserPositionAsk } from '../../lib/browser-position.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * Asks, with the reason, whether the customer shares where they are signing up (FIU-IND wants it recorded).
 * Sharing, refusing or a browser that cannot tell are all recorded; none of them blocks the sign-up.
 */
export function SignupLocationAsk({ value, onChange }: { value: SignupGeolocation | undefined; onChange: (geolocation: SignupGeolocation) => void }) {
  const { asking, share } = useBrowserPositionAsk(onChange);

  const outcome = value === undefined ? undefined : value.status === 'granted' ? t('signup.locationThanks') : t('signup.locationNone');

  return (
    <div className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="signup-location">
      <p className="text-slate-700">{t('signup.locationAsk')}</p>
      {outcome ? (
        <p className="text-slate-600">{outcome}</p>
      ) : (
        <div className="flex gap-2">
          <Button type="button" size="sm" variant="outline" disabled={asking} onClick={share}>
            {asking ? t('signup.locationAsking') : t('signup.shareLocation')}
          </Button>
          <Button type="button" size="sm" variant="ghost" disabled={asking} onClick={() => onChange({ status: 'denied' })}>
            {t('signup.notNow')}
          </Button>
        </div>
      )}
    </div>
  );
}
