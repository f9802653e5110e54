import type { ReactNode } from 'react';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import { BottomNav } from './bottom-nav.tsx';

/** The frame of every signed-in page: header, content, footer and bottom navigation. */
export function AppPage({ title, backTo, children }: { title?: string; backTo?: string; children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <AppHeader title={title} backTo={backTo} />
      <main className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-4">{children}</main>
      <AppFooter />
      <BottomNav />
    </div>
  );
}
