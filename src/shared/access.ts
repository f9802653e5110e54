import type { Role, VipLevel } from './contracts/enums.ts';

/**
 * Who may open the admin area's pages: the admin role, or a customer of any VIP
 * level. A VIP customer's pages show only what SPEC.md names (the dashboard's
 * cards; the settings' rates, addresses and app download, read only), all of it
 * read from the public settings: VIP is a rate tier, not an operator
 * (docs/decisions/040). The web app's route guard and bottom bar ask this.
 */
export function canOpenAdminArea(role: Role, vipLevel: VipLevel): boolean {
  return role === 'admin' || vipLevel !== 'normal';
}

/**
 * Who may read the operator's figures (totals of customer balances, payouts,
 * pending queues, limits, users, audit) and call any /api/admin route: the
 * admin role only, whatever the VIP level. The server's admin guard and the
 * live-update audience both ask this one function.
 */
export function canReadOperatorFigures(role: Role): boolean {
  return role === 'admin';
}
