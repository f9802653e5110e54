import { useQuery } from '@tanstack/react-query';
import { chainIncidentListResponseSchema, chainIncidentSettleResponseSchema, type ChainIncidentSettleRequest } from '#shared/contracts/chain-incidents';
import type { DepositNetwork } from '#shared/contracts/enums';
import { reconciliationResponseSchema, sweepPlanSchema, type CreateSweepPlanRequest } from '#shared/contracts/reconciliation';
import { apiRequest } from '../../lib/api.ts';

export const reconciliationKeys = {
  page: (network: DepositNetwork, cursor: string | undefined) => ['admin', 'reconciliation', network, cursor ?? ''] as const,
  incidents: () => ['admin', 'chain-incidents'] as const,
};

export function useReconciliation(network: DepositNetwork, cursor: string | undefined) {
  const query = new URLSearchParams({ network, ...(cursor ? { cursor } : {}) });
  return useQuery({
    queryKey: reconciliationKeys.page(network, cursor),
    queryFn: ({ signal }) => apiRequest(`/api/admin/reconciliation?${query.toString()}`, reconciliationResponseSchema, { signal }),
  });
}

export function useChainIncidents() {
  return useQuery({
    queryKey: reconciliationKeys.incidents(),
    queryFn: ({ signal }) => apiRequest('/api/admin/chain-incidents', chainIncidentListResponseSchema, { signal }),
  });
}

export const settleIncident = (id: string, body: ChainIncidentSettleRequest) =>
  apiRequest(`/api/admin/chain-incidents/${encodeURIComponent(id)}/settle`, chainIncidentSettleResponseSchema, { method: 'POST', body });

export const createSweepPlan = (body: CreateSweepPlanRequest) => apiRequest('/api/admin/reconciliation/sweep-plans', sweepPlanSchema, { method: 'POST', body });
