import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChainIncident } from '#shared/contracts/chain-incidents';
import { DEPOSIT_NETWORKS, type DepositNetwork } from '#shared/contracts/enums';
import { RECONCILIATION_PROBLEMS, type ReconciliationRow, type SweepPlan } from '#shared/contracts/reconciliation';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Select } from '../../components/ui/select.tsx';
import { errorMessage } from '../../lib/api.ts';
import { AdminPage } from '../admin/index.ts';
import { createSweepPlan, reconciliationKeys, settleIncident, useChainIncidents, useReconciliation } from './api.ts';

/*
 * The operator's reconciliation (decision 045): on-chain USDT per deposit address beside credited
 * minus swept, the open chain incidents with their settlement, and sweep plans for the offline
 * signer. The runbook (docs/operator-runbook.md) says what each alarm means.
 */

function RowLine({ row }: { row: ReconciliationRow }) {
  return (
    <tr className={row.problem ? 'bg-red-50 dark:bg-red-950/40' : undefined}>
      <td className="break-all py-1 pr-2 font-mono text-xs">
        {row.kind === 'shared' ? 'Shared address: ' : ''}
        {row.address}
        {row.email ? <span className="block font-sans text-muted-foreground">{row.email}</span> : null}
      </td>
      <td className="py-1 pr-2 text-right">{row.onChain ?? '?'}</td>
      <td className="py-1 pr-2 text-right">{row.credited}</td>
      <td className="py-1 pr-2 text-right">{row.swept}</td>
      <td className="py-1 pr-2 text-right">{row.difference ?? '?'}</td>
      <td className="py-1 text-xs">{row.problem ? RECONCILIATION_PROBLEMS[row.problem] : 'OK'}</td>
    </tr>
  );
}

function Balances({ network }: { network: DepositNetwork }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const report = useReconciliation(network, cursors.at(-1));
  if (report.isPending) return <p>Reading balances from the chain…</p>;
  if (report.isError) return <LoadFailed message={errorMessage(report.error, 'Could not load the reconciliation')} onRetry={() => void report.refetch()} />;
  const data = report.data;
  const rows = data.shared ? [data.shared, ...data.items] : data.items;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">
        As of block {data.asOfBlock ?? 'the newest final block'}. This page: on chain {data.pageTotals.onChain}, expected {data.pageTotals.expected}, difference{' '}
        {data.pageTotals.difference} USDT, {data.pageTotals.flagged} flagged. All {data.networkTotals.addresses} customer addresses: credited{' '}
        {data.networkTotals.credited}, swept {data.networkTotals.swept}, expected on chain {data.networkTotals.expected} USDT.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th className="pr-2">Address</th>
              <th className="pr-2 text-right">On chain</th>
              <th className="pr-2 text-right">Credited</th>
              <th className="pr-2 text-right">Swept</th>
              <th className="pr-2 text-right">Difference</th>
              <th>Check</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <RowLine key={`${row.kind}:${row.address}`} row={row} />
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex gap-2">
        <Button variant="outline" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </Button>
        <Button variant="outline" disabled={data.nextCursor === null} onClick={() => data.nextCursor && setCursors([...cursors, data.nextCursor])}>
          Next page
        </Button>
      </div>
    </div>
  );
}

function IncidentLine({ incident }: { incident: ChainIncident }) {
  const queryClient = useQueryClient();
  const [resolution, setResolution] = useState<'debited' | 'written_off'>('debited');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const settle = async () => {
    try {
      setMessage((await settleIncident(incident.id, { resolution, reason })).message);
      await queryClient.invalidateQueries({ queryKey: reconciliationKeys.incidents() });
    } catch (error) {
      setMessage(errorMessage(error, 'Could not settle the incident'));
    }
  };
  return (
    <li className="flex flex-col gap-1 border-b py-2 text-sm">
      <span>
        {incident.network} deposit of {incident.amount} USDT, transaction <span className="break-all font-mono text-xs">{incident.transactionHash}</span>:{' '}
        {incident.resolution
          ? `settled (${incident.resolution.replace('_', ' ')}${incident.resolutionReason ? `: ${incident.resolutionReason}` : ''})`
          : 'open, the amount is on hold'}
      </span>
      {incident.resolution === null ? (
        <span className="flex flex-wrap gap-2">
          <Select
            aria-label="Settle as"
            value={resolution}
            onChange={(event) => setResolution(event.target.value === 'written_off' ? 'written_off' : 'debited')}
          >
            <option value="debited">Take it back from the customer</option>
            <option value="written_off">Write it off</option>
          </Select>
          <Input aria-label="Reason" placeholder="Reason" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
          <Button onClick={() => void settle()}>Settle</Button>
        </span>
      ) : null}
      {message ? <span role="status">{message}</span> : null}
    </li>
  );
}

function Incidents() {
  const incidents = useChainIncidents();
  if (incidents.isPending) return <p>Loading incidents…</p>;
  if (incidents.isError) return <LoadFailed message={errorMessage(incidents.error, 'Could not load the incidents')} onRetry={() => void incidents.refetch()} />;
  if (incidents.data.items.length === 0) return <p className="text-sm">No deposit has vanished from the chain.</p>;
  return (
    <ul>
      {incidents.data.items.map((incident) => (
        <IncidentLine key={incident.id} incident={incident} />
      ))}
    </ul>
  );
}

function SweepPlanMaker({ network }: { network: DepositNetwork }) {
  const [threshold, setThreshold] = useState('100');
  const [plan, setPlan] = useState<SweepPlan | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const make = async () => {
    try {
      setPlan(await createSweepPlan({ network, threshold }));
      setMessage(null);
    } catch (error) {
      setMessage(errorMessage(error, 'Could not make the sweep plan'));
    }
  };
  return (
    <div className="flex flex-col gap-2 text-sm">
      <span className="flex flex-wrap items-center gap-2">
        <Input aria-label="Threshold in USDT" inputMode="decimal" className="w-32" value={threshold} onChange={(event) => setThreshold(event.target.value)} />
        <Button onClick={() => void make()}>Make sweep plan</Button>
      </span>
      {message ? <span role="alert">{message}</span> : null}
      {plan ? (
        <div className="flex flex-col gap-1">
          <span>
            {plan.items.length} addresses at or above {plan.threshold} USDT.{' '}
            <a className="underline" href={`/api/admin/reconciliation/sweep-plans/${plan.id}/csv`}>
              Download CSV
            </a>{' '}
            <a className="underline" href={`/api/admin/reconciliation/sweep-plans/${plan.id}`} download={`sweep-plan-${plan.network}-${plan.id}.json`}>
              Download JSON
            </a>
          </span>
          <ul>
            {plan.items.map((item) => (
              <li key={item.address} className="break-all font-mono text-xs">
                {item.address} ({item.derivationPath ?? 'shared'}): {item.amount} USDT; needs {item.needs}
                {item.sweep ? `; swept in ${item.sweep.transactionHash}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

export default function ReconciliationPage() {
  const [network, setNetwork] = useState<DepositNetwork>('TRC20');
  return (
    <AdminPage title="Reconciliation" backTo="/admin">
      <Card>
        <CardHeader>
          <CardTitle>Chain incidents</CardTitle>
        </CardHeader>
        <CardContent>
          <Incidents />
        </CardContent>
      </Card>
      <div className="flex gap-2" role="tablist" aria-label="Network">
        {DEPOSIT_NETWORKS.map((option) => (
          <Button
            key={option}
            role="tab"
            aria-selected={network === option}
            variant={network === option ? 'default' : 'outline'}
            onClick={() => setNetwork(option)}
          >
            {option}
          </Button>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{network} balances</CardTitle>
        </CardHeader>
        <CardContent>
          <Balances key={network} network={network} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{network} sweep plan</CardTitle>
        </CardHeader>
        <CardContent>
          <SweepPlanMaker key={network} network={network} />
        </CardContent>
      </Card>
    </AdminPage>
  );
}
