import { translate } from '../../lib/i18n/i18n.ts';

/**
 * The route loader shows this on the first visit, whose JavaScript budget has
 * no room for tailwind-merge or lucide-react's runtime: the icon (lucide's
 * loader-2, ISC licence) is drawn inline, and a size class given by the caller
 * replaces the default size by hand.
 */
export function Spinner({ className = '', label = translate('app.loading') }: { className?: string; label?: string }) {
  const sizeClass = className.split(/\s+/).some((name) => name.startsWith('size-')) ? '' : 'size-5';
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-label={label}
      role="status"
      className={`${sizeClass} animate-spin text-brand-700 ${className}`.trim()}
    >
      <path d="M21 12a9 9 0 1 1-6.219-8.56" />
    </svg>
  );
}

export function FullPageLoader({ text = translate('app.loadingEllipsis') }: { text?: string }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 text-slate-600">
      <Spinner className="size-8" label={text} />
      <p>{text}</p>
    </div>
  );
}
