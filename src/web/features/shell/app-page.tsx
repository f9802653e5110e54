import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { AppFooter } from '../../components/layout/app-footer.tsx';
import { ShellBottomNav, ShellHeader } from './app-frame.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * The frame of every signed-in page: header, content, footer and bottom navigation.
 * `documentTitle` names the browser tab when it should differ from the header's title.
 */
export function AppPage({ title, backTo, documentTitle, children }: { title?: string; backTo?: string; documentTitle?: string; children: ReactNode }) {
  useDocumentTitle(documentTitle ?? title ?? t('shell.dashboard'));
  return (
    <div className="min-h-screen">
      <ShellHeader title={title} backTo={backTo} />
      <main id="main" className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-4">
        {children}
      </main>
      <AppFooter />
      <ShellBottomNav />
    </div>
  );
}
