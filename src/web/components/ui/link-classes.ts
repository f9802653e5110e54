/** Links and buttons of the public pages drawn as the two kinds of button: filled and outlined. */
export const primaryLinkClass =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800 [&_svg]:size-4';
export const outlineLinkClass =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-900 hover:bg-slate-50 [&_svg]:size-4';
