import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn } from '../../db/prepared.ts';
import { KNOWN_DEVICE_LIFETIME_DAYS } from '../../http/security.ts';

const isKnownDeviceStatement = preparedStatement<{ known: boolean }>(
  'auth_is_known_device',
  `select exists (
     select 1 from known_devices d join users u on u.id = d.user_id
     where d.token_hash = $1 and lower(u.email) = lower($2)
       and d.last_signed_in_at > now() - make_interval(days => ${KNOWN_DEVICE_LIFETIME_DAYS})
   ) as known`,
);

/** Whether the browser holding this token signed in to the account with this e-mail within the lifetime. */
export async function isKnownDevice(db: Executor, tokenHash: Buffer, email: string): Promise<boolean> {
  const [row] = await queryPreparedIn(db, isKnownDeviceStatement, [tokenHash, email]);
  return row?.known ?? false;
}

const rememberDeviceStatement = preparedStatement(
  'auth_remember_device',
  `insert into known_devices (token_hash, user_id) values ($1, $2)
   on conflict (token_hash, user_id) do update set last_signed_in_at = now()`,
);

export async function rememberDevice(db: Executor, tokenHash: Buffer, userId: string): Promise<void> {
  await queryPreparedIn(db, rememberDeviceStatement, [tokenHash, userId]);
}

const forgetDevicesStatement = preparedStatement('auth_forget_devices_of_user', `delete from known_devices where user_id = $1`);

export async function forgetDevicesOfUser(db: Executor, userId: string): Promise<void> {
  await queryPreparedIn(db, forgetDevicesStatement, [userId]);
}
