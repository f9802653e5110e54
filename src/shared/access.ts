import type { Role, VipLevel } from './contracts/common.ts';

/**
 * Who may open the admin area: the admin role, or a customer of any VIP level
 * (read only: the dashboard and the settings). The server's guard, the web
 * app's guard and the live-update audience all ask this one function.
 */
export function canReadAdminArea(role: Role, vipLevel: VipLevel): boolean {
  return role === 'admin' || vipLevel !== 'normal';
}
