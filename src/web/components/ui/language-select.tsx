import { useId } from 'react';
import { chooseLanguage, useTranslation, type Language } from '../../lib/i18n/i18n.ts';

/**
 * English or Hindi, each named in its own script so that a reader of either finds it. The choice is
 * remembered on this device; `onChosen` keeps it with the account too (the profile page).
 */
export function LanguageSelect({ className = '', onChosen }: { className?: string; onChosen?: (language: Language) => void }) {
  const { t, language } = useTranslation();
  const id = useId();
  return (
    <div className={`flex items-center gap-2 text-sm ${className}`}>
      <label htmlFor={id} className="font-medium text-slate-700">
        {t('home.language')}
      </label>
      <select
        id={id}
        value={language}
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
}
