import { Crown, Gift, Users } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { REFERRAL_MESSAGES, type ReferralEarning, type ReferredPerson } from '#shared/contracts/referrals';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { ShareButton } from '../../components/ui/share-button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useMe } from '../auth/api.ts';
import { useMoreReferralEarnings, useMoreReferredPeople, useReferralSummary } from './api.ts';
import { displayReferralDate, displayRewardUsdt, referralLink } from './format.ts';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import type { VipLevel } from '#shared/contracts/enums';

const VIP_TIERS: { level: VipLevel; name: string; benefits: string }[] = [
  { level: 'normal', name: 'Normal', benefits: 'Standard rate on withdrawals, and the VIP rate on any withdrawal of \u20b91,00,000 or more.' },
  { level: 'vip', name: 'VIP', benefits: 'The VIP rate on every withdrawal.' },
  { level: 'vip1', name: 'VIP 1', benefits: 'The VIP rate on every withdrawal and priority support.' },
  { level: 'vip2', name: 'VIP 2', benefits: 'The VIP rate, priority support and 50% reduced withdrawal fees.' },
  { level: 'vip3', name: 'VIP 3', benefits: 'The VIP rate, a dedicated account manager and zero withdrawal fees.' },
];

function VipStatusCard({ vipLevel }: { vipLevel: VipLevel }) {
  const current = VIP_TIERS.find((tier) => tier.level === vipLevel) ?? VIP_TIERS[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Crown className="size-5 text-amber-500" aria-hidden />
          VIP Status
        </CardTitle>
        <CardDescription>
          Your level: <Badge tone={vipLevel === 'normal' ? 'default' : 'vip'}>{current?.name}</Badge>
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
              <span className="font-semibold">{tier.name}</span>: {tier.benefits}
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xs text-slate-500">Move up a tier by inviting friends and growing your trading volume.</p>
      </CardContent>
    </Card>
  );
}

function ReferralCodeCard({ code }: { code: string }) {
  const link = referralLink(code);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your Referral Code</CardTitle>
        <CardDescription>Friends who sign up with your code or link become your referrals.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex items-center gap-2">
          <span className="flex-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-lg font-semibold tracking-wider" data-testid="referral-code">
            {code}
          </span>
          <CopyButton text={code} label="Copy referral code" successMessage="Referral code copied" />
        </div>
        <div className="flex items-center gap-2">
          <input
            readOnly
            value={link}
            aria-label="Referral link"
            className="h-11 min-w-0 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 text-sm"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={link} label="Copy referral link" successMessage={REFERRAL_MESSAGES.linkCopied} />
        </div>
        <ShareButton
          title="Rupeedesk"
          text={`Join me on Rupeedesk with my referral code ${code}.`}
          url={link}
          copiedMessage={REFERRAL_MESSAGES.linkCopied}
          className="self-start"
        >
          Share
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
  return <Badge tone={level === 1 ? 'brand' : 'default'}>Level {level}</Badge>;
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
            {more.isFetching ? 'Loading...' : 'Load more'}
          </Button>
        )}
        {more.isError && <p className="mt-2 text-sm text-red-600">{REFERRAL_MESSAGES.loadFailed}</p>}
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
      title="Your Referrals"
      emptyText={REFERRAL_MESSAGES.empty}
      canLoadMore={requested ? more.hasNextPage : firstPage.nextCursor !== null}
      more={more}
      onLoadMore={() => (requested ? void more.fetchNextPage() : setRequested(true))}
      rows={people.map((person) => (
        <li key={person.id} className="flex items-center justify-between gap-3 py-3">
          <div className="min-w-0">
            <p className="truncate font-medium">{person.name}</p>
            <p className="text-xs text-slate-500">Joined {displayReferralDate(person.joinedAt)}</p>
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
      title="Earnings History"
      emptyText={REFERRAL_MESSAGES.noEarnings}
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
    if (summary.isError) toast.error(REFERRAL_MESSAGES.loadFailed, { id: REFERRAL_MESSAGES.loadFailed });
  }, [summary.isError]);

  return (
    <AppPage title="Referral & VIP" backTo="/dashboard">
      {me.data && <VipStatusCard vipLevel={me.data.vipLevel} />}
      {me.data && <ReferralCodeCard code={me.data.referralCode} />}

      {summary.isPending && (
        <div className="flex justify-center py-6">
          <Spinner label="Loading referral data" />
        </div>
      )}
      {summary.isError && (
        <Card>
          <LoadFailed message={REFERRAL_MESSAGES.loadFailed} onRetry={() => void summary.refetch()} className="py-4" />
        </Card>
      )}
      {summary.data && (
        <>
          <div className="grid grid-cols-2 gap-3">
            <Stat icon={<Users className="size-4" aria-hidden />} label="Total Referrals" value={String(summary.data.totalReferrals)} testId="total-referrals" />
            <Stat icon={<Gift className="size-4" aria-hidden />} label="Total Earnings" value={displayRewardUsdt(summary.data.totalEarnings)} testId="total-earnings" />
          </div>

          <Card>
            <CardHeader>
              <CardTitle>How it works</CardTitle>
            </CardHeader>
            <CardContent className="text-sm text-slate-600">
              Share your link. When someone you invited has a deposit approved, you earn 0.1% of it (level 1). When someone they invited deposits, you earn
              0.02% (level 2). Rewards are added to your USDT balance straight away.
            </CardContent>
          </Card>

          <ReferredPeopleList firstPage={summary.data.referrals} />
          <EarningsList firstPage={summary.data.earnings} />
        </>
      )}
    </AppPage>
  );
}
