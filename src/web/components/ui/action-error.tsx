import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/** A whole action's failure, said once, next to the button that started it (the deposit form heads it 'Error:', as SPEC.md says). */
export function ActionError({ message, heading }: { message: string | undefined; heading?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {heading && <p className="font-semibold">{heading}</p>}
      <p>{localizeMessage(message)}</p>
    </div>
  );
}
