import { canOpenAdminArea as canOpenAdminAreaOf, canReadOperatorFigures } from '#shared/access';
import type { Me } from '#shared/contracts/auth';
import { useMe } from '../../lib/session.ts';

// Apart from the guards (guards.tsx), which load with every first visit: only signed-in pages ask these.
/** Admin area pages: role admin, or any VIP level (who sees only the spec's cards and the public settings, decision 040). */
export function canOpenAdminArea(user: Pick<Me, 'role' | 'vipLevel'>): boolean {
  return canOpenAdminAreaOf(user.role, user.vipLevel);
}

/** Whether the signed-in user may see the operator's figures (the admin role; not a VIP level, decision 040). */
export function useCanReadOperatorFigures(): boolean {
  const me = useMe();
  return me.data ? canReadOperatorFigures(me.data.role) : false;
}
