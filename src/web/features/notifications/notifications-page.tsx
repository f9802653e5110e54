import { Bell } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import type { Notification } from '#shared/contracts/notifications';
import { AppPage } from '../shell/index.ts';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/utils.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import { useMarkNotificationsRead, useNotifications } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

export default function NotificationsPage() {
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const unread = notifications.data?.unreadCount ?? 0;

  // Opening the list reads what is in it; the ones shown stay marked "New" until the page is left.
  useEffect(() => {
    if (unread > 0) void markRead().catch(() => undefined);
  }, [unread, markRead]);

  return (
    <AppPage title={t('shell.notifications')}>
      {notifications.isPending ? (
        <Card>
          <CardContent className="flex items-center justify-center gap-3 py-10 pt-10 text-slate-600">
            <Spinner />
            {t('notifications.loading')}
          </CardContent>
        </Card>
      ) : notifications.isError ? (
        <Card>
          <LoadFailed message={t('notifications.failed')} onRetry={() => void notifications.refetch()} />
        </Card>
      ) : notifications.data.items.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-2 py-10 pt-10 text-center text-slate-500">
            <Bell className="size-8" aria-hidden />
            <p>{t('notifications.empty')}</p>
          </CardContent>
        </Card>
      ) : (
        <ul aria-label={t('shell.notifications')} className="flex flex-col gap-2">
          {notifications.data.items.map((item) => (
            <NotificationItem key={item.id} item={item} />
          ))}
        </ul>
      )}
    </AppPage>
  );
}

function NotificationItem({ item }: { item: Notification }) {
  const content = (
    <>
      <div className="flex items-start justify-between gap-2">
        <p className="font-semibold text-slate-900">{item.title}</p>
        {!item.read && <span className="shrink-0 rounded-full bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">{t('notifications.new')}</span>}
      </div>
      <p className="break-words text-sm text-slate-700">{item.body}</p>
      <p className="text-xs text-slate-500">{displayDateTime(item.createdAt)}</p>
    </>
  );
  const className = cn('flex flex-col gap-1 rounded-xl border bg-white p-4', item.read ? 'border-slate-200' : 'border-brand-300');
  return (
    <li>
      {item.link ? (
        <Link to={item.link} className={cn(className, 'hover:bg-slate-50')}>
          {content}
        </Link>
      ) : (
        <div className={className}>{content}</div>
      )}
    </li>
  );
}
