import type { PendingChangeKind } from '#shared/contracts/enums';
import { PENDING_CHANGE_MESSAGES, PENDING_CHANGES_LIST_LIMIT, type PendingChange, type PendingChangeDecision } from '#shared/contracts/pending-changes';
import type { Database, Executor } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { decide, decideInTransaction, type Decider, type DecisionOutcome, type RequestKind } from '../../platform/decisions/decide.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { descriptionOf, type PendingChangePayload, type StoredPendingChange } from './kinds.ts';
import * as pendingChangeRepository from './repository.ts';

/*
 * Two-person control (docs/decisions/017, 024, 033). A feature that needs a second admin asks here
 * for a pending change inside its own transaction; a second admin confirms it (or any admin
 * discards it) through the decision skeleton, `platform/decisions/decide.ts`, which hands a
 * confirmed change to the owning feature's ChangeHandler in the same transaction. The handlers
 * reach the routes from `features/pending-change-handlers.ts`, so no feature imports another
 * through this one.
 */

export interface Actor {
  userId: string;
  ipAddress?: string | undefined;
}

/**
 * How the feature that owns a kind applies it. `lockSubject` locks what the change is about (the
 * settings row, the withdrawal) before the change itself is locked: the feature's own paths lock
 * in that order too (a save locks the settings, an approve the withdrawal, then the change), so a
 * confirm and an approve at the same moment wait for each other instead of deadlocking.
 * `apply` runs inside the confirmation's transaction; it throws AppError (409) when stale.
 */
export interface ChangeHandler<Kind extends PendingChangeKind> {
  kind: Kind;
  lockSubject(transaction: Executor, subject: string): Promise<void>;
  apply(transaction: Executor, change: StoredPendingChange<Kind>, decider: Actor): Promise<void>;
}

/** Every kind's handler: the registry the routes decide with, built once by `features/pending-change-handlers.ts`. */
export type ChangeHandlers = { [Kind in PendingChangeKind]: ChangeHandler<Kind> };

/** Two-person control is on while two or more users have the admin role (VIP-level readers do not count). */
export async function needsSecondAdmin(db: Executor): Promise<boolean> {
  return (await pendingChangeRepository.countAdmins(db)) >= 2;
}

export async function adminEmails(db: Executor): Promise<string[]> {
  return pendingChangeRepository.listAdminEmails(db);
}

export async function findOpenChange<Kind extends PendingChangeKind>(
  db: Executor,
  kind: Kind,
  subject: string,
): Promise<StoredPendingChange<Kind> | undefined> {
  const change = await pendingChangeRepository.findOpenBySubject(db, kind, subject);
  return change && isOfKind(change, kind) ? change : undefined;
}

function isOfKind<Kind extends PendingChangeKind>(change: StoredPendingChange, kind: Kind): change is StoredPendingChange<Kind> {
  return change.kind === kind;
}

function concernedUserIdOf(change: StoredPendingChange): string | undefined {
  return descriptionOf(change).concernedUserId?.(change.payload);
}

/** What the audit rows of a change carry besides its status: its kind and payload. */
function auditSnapshot(change: StoredPendingChange): Record<string, unknown> {
  return { kind: change.kind, ...change.payload };
}

/** Records a change that waits for a second admin, with its audit entry, in the caller's transaction. */
export async function requestChange<Kind extends PendingChangeKind>(
  db: Executor,
  kind: Kind,
  payload: PendingChangePayload<Kind>,
  actor: Actor,
): Promise<PendingChange> {
  const subject = descriptionOf({ kind }).subjectOf(payload);
  const change = await pendingChangeRepository.insertChange(db, { kind, subject, payload, requestedByUserId: actor.userId });
  await recordAudit(db, {
    actorUserId: actor.userId,
    action: 'pending_change.request',
    targetType: 'pending_change',
    targetId: change.id,
    targetUserId: concernedUserIdOf(change),
    after: { status: 'open', ...auditSnapshot(change) },
    ipAddress: actor.ipAddress,
  });
  await publishEvent(db, { type: 'admin.queue.updated' });
  return viewOne(db, change);
}

/** Details of a decision on a change: 'caller' when the decision that confirms it applies the change itself. */
type ChangeDecisionDetails = { appliedBy?: 'caller' | undefined };

/**
 * Changes as a request kind of the decision skeleton: confirming is approving (never by the
 * requester), discarding is rejecting (by any admin). `handlers` apply the kinds this decision may meet.
 */
function changeDecisions(handlers: Partial<ChangeHandlers>): RequestKind<StoredPendingChange, ChangeDecisionDetails, PendingChangeDecision> {
  return {
    noun: 'pending_change',
    waitingStatus: 'open',
    messages: {
      notFound: PENDING_CHANGE_MESSAGES.notFound,
      ownRequest: PENDING_CHANGE_MESSAGES.ownChange,
      alreadyDecided: PENDING_CHANGE_MESSAGES.alreadyDecided,
    },
    findById: async (transaction, id) => {
      const unlocked = await pendingChangeRepository.findById(transaction, id);
      if (!unlocked) return undefined;
      await handlerOf(handlers, unlocked).lockSubject(transaction, unlocked.subject);
      return pendingChangeRepository.findByIdForUpdate(transaction, id);
    },
    partiesOf: (change, outcome) => (outcome === 'approved' && change.requestedByUserId !== null ? [change.requestedByUserId] : []),
    markDecided: (transaction, id, decision) =>
      pendingChangeRepository.markDecided(transaction, id, {
        status: decision.outcome === 'approved' ? 'confirmed' : 'discarded',
        decidedByUserId: decision.decidedByUserId,
      }),
    settle: async (transaction, change, outcome, request) => {
      if (outcome === 'approved' && request.details.appliedBy !== 'caller') {
        await applyChange(transaction, handlerOf(handlers, change), change, adminOf(request.decider));
      }
      return { movements: [], targetUserId: concernedUserIdOf(change), auditAfter: { status: change.status, ...auditSnapshot(change) }, events: [] };
    },
    answer: async (transaction, change, outcome) => ({
      message: outcome === 'approved' ? PENDING_CHANGE_MESSAGES.confirmed : PENDING_CHANGE_MESSAGES.discarded,
      pendingChange: await viewOne(transaction, change),
    }),
  };
}

function handlerOf<Kind extends PendingChangeKind>(handlers: Partial<ChangeHandlers>, change: { kind: Kind }): ChangeHandler<Kind> {
  const handler: ChangeHandler<Kind> | undefined = handlers[change.kind];
  if (!handler) throw new Error(`no handler is registered for pending changes of kind ${change.kind}`);
  return handler;
}

function applyChange<Kind extends PendingChangeKind>(
  transaction: Executor,
  handler: ChangeHandler<Kind>,
  change: StoredPendingChange,
  decider: Actor,
): Promise<void> {
  if (!isOfKind(change, handler.kind)) throw new Error(`a change of kind ${change.kind} was handed to the handler of ${handler.kind}`);
  return handler.apply(transaction, change, decider);
}

function adminOf(decider: Decider): Actor {
  if (decider.kind !== 'admin') throw new Error('a change is applied on a second admin’s confirm only');
  return { userId: decider.userId, ipAddress: decider.ipAddress };
}

function deciderOf(actor: Actor | null): Decider {
  return actor ? { kind: 'admin', userId: actor.userId, ipAddress: actor.ipAddress } : { kind: 'system' };
}

/** A second admin confirms a change, or any admin discards it, in its own transaction (the routes). */
export async function decideChange(db: Database, handlers: ChangeHandlers, actor: Actor, id: string, outcome: DecisionOutcome): Promise<PendingChangeDecision> {
  const answer = await decide(db, changeDecisions(handlers), { id, outcome, decider: deciderOf(actor), details: {} });
  return answer.body;
}

/**
 * Discards the open change about a subject, if any, in the caller's transaction: a withdrawal that
 * was rejected (or approved another way) leaves no first approval behind. A null actor is the system.
 */
export async function discardOpenChange<Kind extends PendingChangeKind>(
  db: Executor,
  handler: ChangeHandler<Kind>,
  subject: string,
  actor: Actor | null,
): Promise<void> {
  const open = await pendingChangeRepository.findOpenBySubject(db, handler.kind, subject);
  if (open)
    await decideInTransaction(db, changeDecisions({ [handler.kind]: handler }), { id: open.id, outcome: 'rejected', decider: deciderOf(actor), details: {} });
}

/**
 * Marks an open change confirmed in the caller's transaction, which applies it itself (a second
 * admin's approve of the withdrawal a first approval is about).
 */
export async function confirmOpenChange<Kind extends PendingChangeKind>(
  db: Executor,
  handler: ChangeHandler<Kind>,
  change: StoredPendingChange<Kind>,
  actor: Actor,
): Promise<void> {
  await decideInTransaction(db, changeDecisions({ [handler.kind]: handler }), {
    id: change.id,
    outcome: 'approved',
    decider: deciderOf(actor),
    details: { appliedBy: 'caller' },
  });
}

export async function listOpenChanges(db: Executor): Promise<PendingChange[]> {
  return changeViews(db, await pendingChangeRepository.listOpen(db, PENDING_CHANGES_LIST_LIMIT));
}

async function viewOne(db: Executor, change: StoredPendingChange): Promise<PendingChange> {
  const [view] = await changeViews(db, [change]);
  if (!view) throw new Error('a pending change has no view');
  return view;
}

/** The admin screen's rows: what every change shows, and what its kind adds (kinds.ts). */
async function changeViews(db: Executor, changes: StoredPendingChange[]): Promise<PendingChange[]> {
  const ids = new Set<string>();
  for (const change of changes) {
    for (const id of [change.requestedByUserId, change.decidedByUserId, concernedUserIdOf(change)]) if (id) ids.add(id);
  }
  const people = await pendingChangeRepository.findPeople(db, [...ids]);
  const person = (id: string | null | undefined) => (id ? (people.get(id) ?? null) : null);
  return changes.map((change) => {
    const kindView = descriptionOf(change).view(change.payload, person(concernedUserIdOf(change)));
    return {
      id: change.id,
      kind: change.kind,
      status: change.status,
      summary: kindView.summary,
      from: kindView.from,
      to: kindView.to,
      network: kindView.network ?? null,
      withdrawal: kindView.withdrawal ?? null,
      ...(kindView.deposit ? { deposit: kindView.deposit } : {}),
      requestedBy: person(change.requestedByUserId),
      requestedAt: change.requestedAt.toISOString(),
      decidedBy: person(change.decidedByUserId),
      decidedAt: change.decidedAt?.toISOString() ?? null,
    };
  });
}
