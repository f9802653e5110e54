import type { ReactNode } from 'react';
import { AppFooter } from '../../../components/layout/app-footer.tsx';
import { AppHeader } from '../../../components/layout/app-header.tsx';
import { BottomNav } from '../../../components/layout/bottom-nav.tsx';

/** AppPage with room for the admin tables: the same header, footer and navigation, a wider content column. */
export function AdminPage({ title, backTo, children }: { title: string; backTo: string; children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <AppHeader title={title} backTo={backTo} />
      <main className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-4">{children}</main>
      <AppFooter />
      <BottomNav />
    </div>
  );
}
