import { ArrowLeft, RefreshCw } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { REQUEST_STATUSES, WITHDRAWAL_STATUSES } from '#shared/contracts/enums';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { adminKeys, type QueueKind, type StatusFilter } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { QueueTable } from './components/queue-table.tsx';
import { UnclaimedTransfersSection } from './components/unclaimed-transfers.tsx';
import { DEPOSIT_QUEUE, TRANSFER_QUEUE, WITHDRAWAL_QUEUE } from './queues.tsx';
import { useDecision } from './use-decision.tsx';

const TABS = ['deposits', 'withdrawals', 'transfers'] as const satisfies readonly QueueKind[];
const STATUS_FILTERS: Record<QueueKind, readonly StatusFilter[]> = {
  deposits: ['all', ...REQUEST_STATUSES],
  withdrawals: ['all', ...WITHDRAWAL_STATUSES],
  transfers: ['all', ...REQUEST_STATUSES],
};
const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  all: 'All statuses',
  pending: 'Pending',
  processing: 'Processing',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

function pickOne<T extends string>(value: string | null, options: readonly T[], fallback: T): T {
  return options.find((option) => option === value) ?? fallback;
}

export default function TransactionsPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = pickOne(searchParams.get('tab'), TABS, 'deposits');
  const status = pickOne(searchParams.get('status'), STATUS_FILTERS[tab], 'all');
  const refreshing = useIsFetching({ queryKey: adminKeys.queues() }) > 0;
  const decision = useDecision();

  const setParam = (name: 'tab' | 'status', value: string) => {
    const next = new URLSearchParams(searchParams);
    next.set(name, value);
    setSearchParams(next, { replace: true });
  };

  const panelProps = { status, busyId: decision.busyId, openDecision: decision.open };

  return (
    <AdminPage title="Transaction Management" backTo="/admin">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="sm:w-56">
          <FormField label="Status">
            <Select value={status} onChange={(event) => setParam('status', event.target.value)}>
              {STATUS_FILTERS[tab].map((option) => (
                <option key={option} value={option}>
                  {STATUS_FILTER_LABELS[option]}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => navigate('/admin')}>
            <ArrowLeft />
            Back
          </Button>
          <Button
            variant="outline"
            onClick={() => void queryClient.invalidateQueries({ queryKey: adminKeys.all })}
            disabled={refreshing}
            aria-busy={refreshing}
          >
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        </div>
      </div>

      <Tabs value={tab} onValueChange={(value) => setParam('tab', value)}>
        <TabsList>
          <TabsTrigger value="deposits">Deposits</TabsTrigger>
          <TabsTrigger value="withdrawals">Withdrawals</TabsTrigger>
          <TabsTrigger value="transfers">Transfers</TabsTrigger>
        </TabsList>
        <TabsContent value="deposits">
          <UnclaimedTransfersSection />
          <QueueTable definition={DEPOSIT_QUEUE} {...panelProps} />
        </TabsContent>
        <TabsContent value="withdrawals">
          <QueueTable definition={WITHDRAWAL_QUEUE} {...panelProps} />
        </TabsContent>
        <TabsContent value="transfers">
          <QueueTable definition={TRANSFER_QUEUE} {...panelProps} />
        </TabsContent>
      </Tabs>
      {decision.dialog}
    </AdminPage>
  );
}
