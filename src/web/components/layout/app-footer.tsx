import { copyrightLine, PRODUCT_NAME, PRODUCT_TAGLINE } from '#shared/limits';

export function AppFooter() {
  return (
    <footer className="mx-auto max-w-3xl px-4 pb-24 pt-8 text-center text-xs text-slate-500">
      <p className="font-semibold text-slate-700">{PRODUCT_NAME}</p>
      <p>{PRODUCT_TAGLINE}</p>
      <p className="mt-1">
        {copyrightLine()}
      </p>
    </footer>
  );
}
