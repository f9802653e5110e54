import { useId } from 'react';
import { chooseLanguage, useTranslation, type Language } from '../../lib/i18n/i18n.ts';

/**
 * English or Hindi, each named in its own script so that a reader of either finds it. The choice is
 * remembered on this device; `onChosen` keeps it with the account too (the profile page).
 */
export function LanguageSelect({
  className = '',
  onChosen,
  error,
}: {
  className?: string;
  onChosen?: (language: Language) => void;
  /** Why the last choice was not kept (the profile's save to the account), said at the select. */
  error?: string | undefined;
}) {
  const { t, language } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const select = (
    <div className={`flex items-center gap-2 text-sm ${error ? '' : className}`}>
      <label htmlFor={id} className="font-medium text-slate-700">
        {t('home.language')}
      </label>
      <select
        id={id}
        value={language}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          const chosen = event.target.value as Language;
          void chooseLanguage(chosen).then(() => onChosen?.(chosen));
        }}
        className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900"
      >
        <option value="en" lang="en">
          English
        </option>
        <option value="hi" lang="hi">
          हिन्दी
        </option>
      </select>
    </div>
  );
  if (!error) return select;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      {select}
      <p id={errorId} className="text-sm text-red-600">
        {error}
      </p>
    </div>
  );
}
