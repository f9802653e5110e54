import { Link } from 'react-router';
import type { OperatorIdentityResponse } from '#shared/contracts/operator-identity';
import { useTranslation } from '../../lib/i18n/i18n.ts';
import { useOperatorIdentity } from './api.ts';

/** The grievance officer's name, e-mail and phone, without those not set. */
const officerParts = (identity: OperatorIdentityResponse) =>
  [identity.grievanceOfficerName, identity.grievanceOfficerEmail, identity.grievanceOfficerPhone].filter((part) => part !== '');

/** The footer's line: who runs the app and how to reach the grievance officer; nothing of what is not set. */
export function OperatorFooterLine() {
  const { t } = useTranslation();
  const identity = useOperatorIdentity().data;
  if (!identity) return null;
  const officer = officerParts(identity);
  return (
    <div className="flex flex-col items-center gap-1 text-center text-xs sm:items-start sm:text-left" data-testid="operator-footer">
      {identity.legalName !== '' && <p>{t('legal.operatedBy', { name: identity.legalName })}</p>}
      {officer.length > 0 && <p>{t('legal.grievanceOfficerLine', { officer: officer.join(' · ') })}</p>}
    </div>
  );
}

/** A labelled e-mail or phone link; nothing when the value is not set. */
function ContactLine({ label, scheme, value }: { label: string; scheme: 'mailto' | 'tel'; value: string }) {
  if (value === '') return null;
  return (
    <p>
      {label}{' '}
      <a className="text-brand-800 underline" href={`${scheme}:${value}`}>
        {value}
      </a>
    </p>
  );
}

/**
 * The operator's identity and grievance officer, as the terms and privacy pages and the consent notice show
 * them. A field an admin has not set is left out; without any officer details, the contact page is named.
 */
export function OperatorIdentityDetails() {
  const { t } = useTranslation();
  const identity = useOperatorIdentity().data;
  if (!identity) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="operator-identity">
      {identity.legalName !== '' && (
        <section className="flex flex-col gap-1">
          <h2 className="font-semibold text-slate-900">{t('legal.whoWeAre')}</h2>
          <p>{identity.legalName}</p>
          {identity.address !== '' && <p>{identity.address}</p>}
          {identity.registration !== '' && <p>{t('legal.registration', { registration: identity.registration })}</p>}
        </section>
      )}
      <section className="flex flex-col gap-1">
        <h2 className="font-semibold text-slate-900">{t('legal.grievanceOfficer')}</h2>
        {officerParts(identity).length > 0 ? (
          <>
            <p>{t('legal.grievanceIntro')}</p>
            {identity.grievanceOfficerName !== '' && <p>{identity.grievanceOfficerName}</p>}
            <ContactLine label={t('legal.email')} scheme="mailto" value={identity.grievanceOfficerEmail} />
            <ContactLine label={t('legal.phone')} scheme="tel" value={identity.grievanceOfficerPhone} />
          </>
        ) : (
          <p>
            {t('legal.grievanceFallback')}{' '}
            <Link className="text-brand-800 underline" to="/contact">
              {t('home.contactUs')}
            </Link>
          </p>
        )}
      </section>
    </div>
  );
}
