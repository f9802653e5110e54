import { Crown, Gift, Users } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { REFERRAL_MESSAGES, type ReferralEarning, type ReferredPerson } from '#shared/contracts/referrals';
import { AppPage } from '../shell/index.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { ShareButton } from '../../components/ui/share-button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useMe } from '../../lib/session.ts';
import { useMoreReferralEarnings, useMoreReferredPeople, useReferralSummary } from './api.ts';
import { displayReferralDate, displayRewardUsdt, referralLink } from './format.ts';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import type { VipLevel } from '#shared/contracts/enums';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';

// The tiers' names are the spec's (VIP 1 and so on), the same in every language; "Normal" is translated.
const VIP_TIERS: { level: VipLevel; name: string | MessageKey; benefits: MessageKey }[] = [
  { level: 'normal', name: 'referrals.normal', benefits: 'referrals.normalBenefits' },
  { level: 'vip', name: 'VIP', benefits: 'referrals.vipBenefits' },
  { level: 'vip1', name: 'VIP 1', benefits: 'referrals.vip1Benefits' },
  { level: 'vip2', name: 'VIP 2', benefits: 'referrals.vip2Benefits' },
  { level: 'vip3', name: 'VIP 3', benefits: 'referrals.vip3Benefits' },
];

const tierName = (name: string | MessageKey) => (name === 'referrals.normal' ? t(name) : name);

function VipStatusCard({ vipLevel }: { vipLevel: VipLevel }) {
  const current = VIP_TIERS.find((tier) => tier.level === vipLevel) ?? VIP_TIERS[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Crown className="size-5 text-amber-500" aria-hidden />
          {t('referrals.vipStatus')}
        </CardTitle>
        <CardDescription>
          {t('referrals.yourLevel')} <Badge tone={vipLevel === 'normal' ? 'default' : 'vip'}>{current ? tierName(current.name) : ''}</Badge>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-2 text-sm">
          {VIP_TIERS.map((tier) => (
            <li
              key={tier.level}
              aria-current={tier.level === vipLevel ? 'true' : undefined}
              className={`rounded-lg border p-3 ${tier.level === vipLevel ? 'border-amber-300 bg-amber-50' : 'border-slate-200'}`}
            >
              <span className="font-semibold">{tierName(tier.name)}</span>: {t(tier.benefits)}
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xs text-slate-500">{t('referrals.moveUp')}</p>
      </CardContent>
    </Card>
  );
}

function ReferralCodeCard({ code }: { code: string }) {
  const link = referralLink(code);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('referrals.codeTitle')}</CardTitle>
        <CardDescription>{t('referrals.codeDescription')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex items-center gap-2">
          <span className="flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-lg font-semibold tracking-wider" data-testid="referral-code">
            {code}
          </span>
          <CopyButton text={code} label={t('referrals.copyCode')} successMessage={t('referrals.codeCopied')} />
        </div>
        <div className="flex items-center gap-2">
          <input
            readOnly
            value={link}
            aria-label={t('referrals.link')}
            className="h-11 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 text-sm"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={link} label={t('referrals.copyLink')} successMessage={t('referrals.linkCopied')} />
        </div>
        <ShareButton title="Rupeedesk" text={t('referrals.shareText', { code })} url={link} copiedMessage={t('referrals.linkCopied')} className="self-start">
          {t('referrals.share')}
        </ShareButton>
      </CardContent>
    </Card>
  );
}

function Stat({ icon, label, value, testId }: { icon: ReactNode; label: string; value: string; testId: string }) {
  return (
    <Card className="p-4">
      <p className="flex items-center gap-2 text-sm text-slate-500">
        {icon}
        {label}
      </p>
      <p className="mt-1 text-2xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </p>
    </Card>
  );
}

function LevelBadge({ level }: { level: 1 | 2 }) {
  return <Badge tone={level === 1 ? 'brand' : 'default'}>{t('referrals.level', { level })}</Badge>;
}

interface MorePages {
  hasNextPage: boolean;
  isFetching: boolean;
  isError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** A list card: its rows, the empty text, and Load more while the server has further pages. */
function ListCard({
  title,
  rows,
  emptyText,
  canLoadMore,
  more,
  onLoadMore,
}: {
  title: string;
  rows: ReactNode[];
  emptyText: string;
  canLoadMore: boolean;
  more: MorePages;
  onLoadMore: () => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="py-4 text-center text-sm text-slate-500">{emptyText}</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label={title}>
            {rows}
          </ul>
        )}
        {canLoadMore && (
          <Button variant="outline" className="mt-3 w-full" disabled={more.isFetching} onClick={onLoadMore}>
            {more.isFetching ? t('referrals.loading') : t('referrals.loadMore')}
          </Button>
        )}
        {more.isError && <p className="mt-2 text-sm text-red-600">{t('referrals.loadFailed')}</p>}
      </CardContent>
    </Card>
  );
}

function ReferredPeopleList({ firstPage }: { firstPage: { items: ReferredPerson[]; nextCursor: string | null } }) {
  const [requested, setRequested] = useState(false);
  const more = useMoreReferredPeople(firstPage.nextCursor, requested);
  const people = [...firstPage.items, ...(more.data?.pages.flatMap((page) => page.items) ?? [])];
  return (
    <ListCard
      title={t('referrals.yourReferrals')}
      emptyText={t('referrals.empty')}
      canLoadMore={requested ? more.hasNextPage : firstPage.nextCursor !== null}
      more={more}
      onLoadMore={() => (requested ? void more.fetchNextPage() : setRequested(true))}
      rows={people.map((person) => (
        <li key={person.id} className="flex items-center justify-between gap-3 py-3">
          <div className="min-w-0">
            <p className="truncate font-medium">{person.name}</p>
            <p className="text-xs text-slate-500">{t('referrals.joined', { date: displayReferralDate(person.joinedAt) })}</p>
          </div>
          <LevelBadge level={person.level} />
        </li>
      ))}
    />
  );
}

function EarningsList({ firstPage }: { firstPage: { items: ReferralEarning[]; nextCursor: string | null } }) {
  const [requested, setRequested] = useState(false);
  const more = useMoreReferralEarnings(firstPage.nextCursor, requested);
  const earnings = [...firstPage.items, ...(more.data?.pages.flatMap((page) => page.items) ?? [])];
  return (
    <ListCard
      title={t('referrals.earningsHistory')}
      emptyText={t('referrals.noEarnings')}
      canLoadMore={requested ? more.hasNextPage : firstPage.nextCursor !== null}
      more={more}
      onLoadMore={() => (requested ? void more.fetchNextPage() : setRequested(true))}
      rows={earnings.map((earning) => (
        <li key={earning.id} className="flex items-center justify-between gap-3 py-3">
          <div>
            <p className="font-medium tabular-nums">+{displayRewardUsdt(earning.amount)}</p>
            <p className="text-xs text-slate-500">{displayReferralDate(earning.earnedAt)}</p>
          </div>
          <LevelBadge level={earning.level} />
        </li>
      ))}
    />
  );
}

export default function ReferralsPage() {
  const me = useMe();
  const summary = useReferralSummary();

  useEffect(() => {
    if (summary.isError) toast.error(t('referrals.loadFailed'), { id: REFERRAL_MESSAGES.loadFailed });
  }, [summary.isError]);

  return (
    <AppPage title={t('referrals.title')} backTo="/dashboard">
      {me.data && <VipStatusCard vipLevel={me.data.vipLevel} />}
      {me.data && <ReferralCodeCard code={me.data.referralCode} />}

      {summary.isPending && (
        <div className="flex justify-center py-6">
          <Spinner label={t('referrals.loadingData')} />
        </div>
      )}
      {summary.isError && (
        <Card>
          <LoadFailed message={t('referrals.loadFailed')} onRetry={() => void summary.refetch()} className="py-4" />
        </Card>
      )}
      {summary.data && (
        <>
          <div className="grid grid-cols-2 gap-3">
            <Stat
              icon={<Users className="size-4" aria-hidden />}
              label={t('referrals.totalReferrals')}
              value={String(summary.data.totalReferrals)}
              testId="total-referrals"
            />
            <Stat
              icon={<Gift className="size-4" aria-hidden />}
              label={t('referrals.totalEarnings')}
              value={displayRewardUsdt(summary.data.totalEarnings)}
              testId="total-earnings"
            />
          </div>

          <Card>
            <CardHeader>
              <CardTitle>{t('referrals.howItWorks')}</CardTitle>
            </CardHeader>
            <CardContent className="text-sm text-slate-600">{t('referrals.howItWorksText')}</CardContent>
          </Card>

          <ReferredPeopleList firstPage={summary.data.referrals} />
          <EarningsList firstPage={summary.data.earnings} />
        </>
      )}
    </AppPage>
  );
}
