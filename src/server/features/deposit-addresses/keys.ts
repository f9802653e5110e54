import {
  DEPOSIT_KEY_MESSAGES,
  depositKeyVariable,
  extendedKeyInPart,
  type DepositKeyListResponse,
  type DepositKeyStatus,
  type SetDepositKeyRequest,
  type SetDepositKeyResponse,
} from '#shared/contracts/deposit-keys';
import { DEPOSIT_NETWORKS, type DepositNetwork } from '#shared/contracts/enums';
import type { Database, Executor } from '../../db/client.ts';
import type { AppConfig } from '../../env.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { findOpenChange, needsSecondAdmin, requestChange, type Actor, type ChangeHandler } from '../pending-changes/service.ts';
import { accountExtendedPublicKeyProblem } from './derivation.ts';
import * as depositAddressRepository from './repository.ts';

/*
 * The deposit keys in the admin settings (decision 045). The environment wins: where DEPOSIT_XPUB_*
 * is set, the settings cannot change that network's key (the operator who deployed the server chose
 * it). A key set in the settings is checked exactly as at start (never anything private), and a
 * change needs a second admin while two exist. A changed key never moves an issued address: a
 * customer keeps the address they were given (under whichever key), and only customers who get their
 * first address afterwards get one under the new key. A key can be replaced, not removed.
 */

export type EnvironmentKeys = AppConfig['depositExtendedPublicKeys'];

/** The key customers' new addresses on the network are derived from: the environment's, else the settings', else none. */
export async function effectiveDepositKey(
  db: Executor,
  environment: EnvironmentKeys,
  network: DepositNetwork,
): Promise<{ key: string; source: 'environment' | 'settings' } | undefined> {
  const fromEnvironment = environment[network];
  if (fromEnvironment !== undefined) return { key: fromEnvironment, source: 'environment' };
  const fromSettings = await depositAddressRepository.findSettingsKey(db, network);
  return fromSettings === undefined ? undefined : { key: fromSettings, source: 'settings' };
}

async function statusOf(db: Executor, environment: EnvironmentKeys, network: DepositNetwork): Promise<DepositKeyStatus> {
  const effective = await effectiveDepositKey(db, environment, network);
  return {
    network,
    keyHint: effective ? extendedKeyInPart(effective.key) : null,
    source: effective?.source ?? null,
    addressesIssued: await depositAddressRepository.countIssued(db, network),
  };
}

export async function listDepositKeys(db: Executor, environment: EnvironmentKeys): Promise<DepositKeyListResponse> {
  const items: DepositKeyStatus[] = [];
  for (const network of DEPOSIT_NETWORKS) items.push(await statusOf(db, environment, network));
  return { items };
}

/**
 * Sets a network's key from the settings: 200 when applied (one admin), 202 when it waits for a
 * second admin. The refusals never repeat the value, so a private key pasted by mistake reaches
 * neither a log nor an answer, and nothing is stored before it passed.
 */
export async function setDepositKey(
  db: Database,
  environment: EnvironmentKeys,
  actor: Actor,
  input: SetDepositKeyRequest,
): Promise<{ statusCode: 200 | 202; body: SetDepositKeyResponse }> {
  const { network, extendedPublicKey } = input;
  const problem = accountExtendedPublicKeyProblem(network, extendedPublicKey);
  if (problem !== undefined) throw AppError.fieldError('extendedPublicKey', `The ${network} key ${problem}`);
  if (environment[network] !== undefined) throw AppError.conflict(DEPOSIT_KEY_MESSAGES.setByEnvironment(depositKeyVariable(network)));
  return db.transaction(async (transaction) => {
    await depositAddressRepository.lockSettingsKeys(transaction);
    const other = await effectiveDepositKey(transaction, environment, network === 'ERC20' ? 'TRC20' : 'ERC20');
    if (other?.key === extendedPublicKey) throw AppError.fieldError('extendedPublicKey', DEPOSIT_KEY_MESSAGES.sameAsOtherNetwork);
    const current = await depositAddressRepository.findSettingsKey(transaction, network);
    if (current === extendedPublicKey) throw AppError.fieldError('extendedPublicKey', DEPOSIT_KEY_MESSAGES.unchanged);
    if (await findOpenChange(transaction, 'deposit_xpub', network))
      throw AppError.conflict(DEPOSIT_KEY_MESSAGES.alreadyWaiting(network), 'CHANGE_ALREADY_WAITING');
    const payload = { network, from: current ?? null, to: extendedPublicKey };
    if (await needsSecondAdmin(transaction)) {
      const pendingChange = await requestChange(transaction, 'deposit_xpub', payload, actor);
      return { statusCode: 202, body: { message: DEPOSIT_KEY_MESSAGES.requested, pendingChange } };
    }
    await applyKey(transaction, payload, actor);
    return { statusCode: 200, body: { message: DEPOSIT_KEY_MESSAGES.saved, key: await statusOf(transaction, environment, network) } };
  });
}

async function applyKey(transaction: Executor, payload: { network: DepositNetwork; from: string | null; to: string }, actor: Actor): Promise<void> {
  await depositAddressRepository.saveSettingsKey(transaction, payload.network, payload.to, actor.userId);
  await recordAudit(transaction, {
    actorUserId: actor.userId,
    action: 'deposit_key.set',
    targetType: 'deposit_key',
    targetId: undefined,
    before: { network: payload.network, key: payload.from === null ? null : extendedKeyInPart(payload.from) },
    after: { network: payload.network, key: extendedKeyInPart(payload.to) },
    ipAddress: actor.ipAddress,
  });
}

/** A second admin's confirm of a key change; stale when the key changed meanwhile. */
export const depositKeyChangeHandler: ChangeHandler<'deposit_xpub'> = {
  kind: 'deposit_xpub',
  lockSubject: async (transaction) => {
    await depositAddressRepository.lockSettingsKeys(transaction);
  },
  apply: async (transaction, change, decider) => {
    const current = await depositAddressRepository.findSettingsKey(transaction, change.payload.network);
    if ((current ?? null) !== change.payload.from) throw AppError.conflict(DEPOSIT_KEY_MESSAGES.stale, 'STALE_CHANGE');
    // Checked again: the rules are the same whenever the key is applied.
    if (accountExtendedPublicKeyProblem(change.payload.network, change.payload.to) !== undefined)
      throw AppError.conflict(DEPOSIT_KEY_MESSAGES.stale, 'STALE_CHANGE');
    await applyKey(transaction, change.payload, decider);
  },
};
