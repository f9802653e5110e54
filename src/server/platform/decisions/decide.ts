import { eq } from 'drizzle-orm';
import { isAuditAction, type AuditAction } from '#shared/contracts/enums';
import type { Database, Executor } from '../../db/client.ts';
import { profiles } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/record.ts';
import { publishEvent, type AppEvent } from '../events/publish.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../idempotency/service.ts';
import { moveMoney, type LedgerMovement } from '../ledger/ledger.ts';
import { createNotifications, type NewNotification } from '../notifications/service.ts';

/*
 * One admin decision flow for every request that waits for a decision
 * (deposits, withdrawals, transfers, the changes that wait for a second admin,
 * and what comes next). A request kind describes its table and its money;
 * decide() holds the rules that must never drift apart between kinds.
 */

export type DecisionOutcome = 'approved' | 'rejected';

type NounOf<Verb extends string> = { [Action in AuditAction]: Action extends `${infer Noun}.${Verb}` ? Noun : never }[AuditAction];

/**
 * The request kinds that can be decided: those with an approve and a reject action in AUDIT_ACTIONS,
 * and the changes that wait for a second admin, which are confirmed or discarded (decision 033).
 */
export type DecisionNoun = NounOf<'approve'> | NounOf<'confirm'>;

function isConfirmedNotApproved(noun: DecisionNoun): noun is NounOf<'confirm'> {
  return isAuditAction(`${noun}.confirm`);
}

function auditActionOf(noun: DecisionNoun, outcome: DecisionOutcome): AuditAction {
  if (isConfirmedNotApproved(noun)) return outcome === 'approved' ? `${noun}.confirm` : `${noun}.discard`;
  return outcome === 'approved' ? `${noun}.approve` : `${noun}.reject`;
}

/**
 * Who decides: an admin (whose role is re-read under lock inside the decision's
 * transaction), or the system itself, for example an on-chain deposit credited
 * automatically once verified. A system decision records decided_by as null and
 * an audit row without an actor.
 */
export type Decider = { kind: 'admin'; userId: string; ipAddress?: string | undefined } | { kind: 'system' };

/** The minimum a decided request row must expose. */
export interface DecidableRow {
  id: string;
  status: string;
}

/** What a decision does besides the status change: ledger movements, the audit row's details and the events for customers. */
export interface Settlement {
  movements: LedgerMovement[];
  /** The customer the request belongs to, shown in the audit log; none for a change of the settings. */
  targetUserId?: string | undefined;
  /** The audit row's `after`; its `before` is `{ status: <the state decided from> }`. */
  auditAfter: unknown;
  /** Events besides `admin.queue.updated`, which every decision publishes. */
  events: AppEvent[];
  /** What the customers concerned are told, in the app and by e-mail; recorded with the decision. */
  notifications?: NewNotification[];
}

/**
 * A kind of request that an admin approves or rejects. `Details` is what the
 * admin sends with the decision (a rejection reason, a payout reference);
 * `Body` is the answer the decision routes send back.
 */
/** `Deferred` is the 202 answer of an approval that waits for a second admin (kinds with gateApproval; none for the others). */
export interface RequestKind<Row extends DecidableRow, Details extends Record<string, string | undefined>, Body, Deferred = never> {
  /** The word used in messages and audit actions: 'deposit' gives "This deposit has already been approved." and 'deposit.approve'. */
  noun: DecisionNoun;
  /** The state a request waits for its decision in: 'pending' unless the kind says otherwise (a change waits 'open'). */
  waitingStatus?: string;
  messages: {
    notFound: string;
    ownRequest: string;
    /** The 409 of a second decision; "This <noun> has already been <status>." unless the kind words it. */
    alreadyDecided?: (status: string) => string;
    /**
     * Refusals for states between pending and decided that only another path may decide
     * (a withdrawal in a payout batch is decided by the batch's results): 409 with this message.
     */
    decidedElsewhere?: Partial<Record<string, string>>;
  };
  findById(db: Executor, id: string): Promise<Row | undefined>;
  /**
   * The users a request belongs to; none of them may decide it (four eyes). A change that waits for a
   * second admin names its requester for the confirm only: anyone may discard it, the requester included.
   */
  partiesOf(row: Row, outcome: DecisionOutcome): string[];
  /** The conditional update `... set status = outcome where id = ? and status = from`; undefined when the request was not in that state. */
  markDecided(
    db: Executor,
    id: string,
    decision: { outcome: DecisionOutcome; decidedByUserId: string | null; details: Details; from: string },
  ): Promise<Row | undefined>;
  /**
   * Writes that belong to the kind (e.g. referral reward rows, a confirmed change applied) and the
   * settlement decide() carries out; `row` is the decided row.
   */
  settle(db: Executor, row: Row, outcome: DecisionOutcome, request: DecisionRequest<Details>): Promise<Settlement>;
  /** The answer to the decision, read inside the decision's transaction. */
  answer(db: Executor, row: Row, outcome: DecisionOutcome): Promise<Body>;
  /**
   * Two-person control (decision 017), asked by decide() only, after the checks and before an
   * approval changes anything: `defer` stops here with the kind's answer (a first approval was
   * recorded, 202), `proceed` lets the approval go on, optionally with other details.
   */
  gateApproval?(db: Executor, row: Row, request: DecisionRequest<Details>): Promise<ApprovalGate<Details, Deferred>>;
}

export type ApprovalGate<Details, Deferred> = { kind: 'defer'; statusCode: 202; body: Deferred } | { kind: 'proceed'; details?: Details };

export interface DecisionRequest<Details> {
  id: string;
  outcome: DecisionOutcome;
  decider: Decider;
  details: Details;
  /**
   * The state the request must be in; the kind's waiting state unless the caller is the path that owns
   * a later state (a payout batch's results decide 'processing').
   */
  from?: string;
}

export const ACCESS_DENIED_MESSAGE = 'Access denied';

/** The acting admin's role, read with a shared lock so a demotion waits until this decision has committed. */
async function lockedRoleOf(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ role: profiles.role }).from(profiles).where(eq(profiles.userId, userId)).for('share');
  return row?.role;
}

function refuseDecisionElsewhere(kind: { messages: { decidedElsewhere?: Partial<Record<string, string>> } }, status: string, from: string): void {
  const message = status === from ? undefined : kind.messages.decidedElsewhere?.[status];
  if (message !== undefined) throw AppError.conflict(message, 'DECIDED_ELSEWHERE');
}

/**
 * Decides one pending request inside the caller's transaction: re-checks that
 * an admin decider is still an admin, refuses a decision on the decider's own
 * request, changes the status only while it is pending (a second decision gets
 * 409 ALREADY_DECIDED), moves the money, writes the audit row and publishes the
 * events, all committed together or not at all.
 *
 * Use it directly when the decision is part of a larger transaction (an
 * automatic on-chain credit with `{ kind: 'system' }`); routes use decide().
 */
export async function decideInTransaction<Row extends DecidableRow, Details extends Record<string, string | undefined>, Body, Deferred = never>(
  transaction: Executor,
  kind: RequestKind<Row, Details, Body, Deferred>,
  request: DecisionRequest<Details>,
): Promise<Body> {
  await checkedRequest(transaction, kind, request);
  return applyDecision(transaction, kind, request);
}

/** The checks before any decision: the admin is still an admin, the request exists, is not theirs, and no other path owns its state. */
async function checkedRequest<Row extends DecidableRow, Details extends Record<string, string | undefined>, Body, Deferred = never>(
  transaction: Executor,
  kind: RequestKind<Row, Details, Body, Deferred>,
  request: DecisionRequest<Details>,
): Promise<Row> {
  const { decider } = request;
  if (decider.kind === 'admin' && (await lockedRoleOf(transaction, decider.userId)) !== 'admin') {
    throw AppError.forbidden(ACCESS_DENIED_MESSAGE);
  }
  const existing = await kind.findById(transaction, request.id);
  if (!existing) throw AppError.notFound(kind.messages.notFound);
  if (decider.kind === 'admin' && kind.partiesOf(existing, request.outcome).includes(decider.userId)) throw AppError.forbidden(kind.messages.ownRequest);
  refuseDecisionElsewhere(kind, existing.status, request.from ?? kind.waitingStatus ?? 'pending');
  return existing;
}

async function applyDecision<Row extends DecidableRow, Details extends Record<string, string | undefined>, Body, Deferred = never>(
  transaction: Executor,
  kind: RequestKind<Row, Details, Body, Deferred>,
  request: DecisionRequest<Details>,
): Promise<Body> {
  const { decider } = request;
  const from = request.from ?? kind.waitingStatus ?? 'pending';
  const row = await kind.markDecided(transaction, request.id, {
    outcome: request.outcome,
    decidedByUserId: decider.kind === 'admin' ? decider.userId : null,
    details: request.details,
    from,
  });
  if (!row) {
    // A concurrent change committed first; the conditional update waited for it and found the request in another state.
    const decided = await kind.findById(transaction, request.id);
    if (!decided) throw AppError.notFound(kind.messages.notFound);
    refuseDecisionElsewhere(kind, decided.status, from);
    const message = kind.messages.alreadyDecided?.(decided.status) ?? `This ${kind.noun} has already been ${decided.status}.`;
    throw AppError.conflict(message, 'ALREADY_DECIDED');
  }

  const settlement = await kind.settle(transaction, row, request.outcome, request);
  await moveMoney(transaction, settlement.movements);
  await recordAudit(transaction, {
    actorUserId: decider.kind === 'admin' ? decider.userId : null,
    action: auditActionOf(kind.noun, request.outcome),
    targetType: kind.noun,
    targetId: row.id,
    targetUserId: settlement.targetUserId,
    before: { status: from },
    after: settlement.auditAfter,
    ipAddress: decider.kind === 'admin' ? decider.ipAddress : undefined,
  });
  for (const event of settlement.events) await publishEvent(transaction, event);
  if (settlement.notifications) await createNotifications(transaction, settlement.notifications);
  await publishEvent(transaction, { type: 'admin.queue.updated' });
  return kind.answer(transaction, row, request.outcome);
}

/**
 * Decides one pending request in its own transaction; an approval first passes
 * the kind's two-person control (gateApproval), which may answer 202 instead. With an Idempotency-Key
 * (admins only), a retry of a decision that succeeded gets the first answer
 * back instead of 409 ALREADY_DECIDED; the key, the request id, the outcome and
 * the details must match, or the answer is 422 IDEMPOTENCY_MISMATCH.
 */
export async function decide<Row extends DecidableRow, Details extends Record<string, string | undefined>, Body, Deferred = never>(
  db: Database,
  kind: RequestKind<Row, Details, Body, Deferred>,
  request: DecisionRequest<Details>,
  idempotencyKey?: string,
): Promise<Answer<Body | Deferred>> {
  const scope = decisionScope(kind, request, idempotencyKey);
  const earlier = await findEarlierAnswer<Body | Deferred>(db, scope);
  if (earlier) return earlier;
  return runOnce<Body | Deferred>(db, scope, async (transaction) => {
    const existing = await checkedRequest(transaction, kind, request);
    let details = request.details;
    if (request.outcome === 'approved' && kind.gateApproval) {
      const gate = await kind.gateApproval(transaction, existing, request);
      if (gate.kind === 'defer') return { statusCode: gate.statusCode, body: gate.body };
      details = gate.details ?? details;
    }
    return { statusCode: 200, body: await applyDecision(transaction, kind, { ...request, details }) };
  });
}

function decisionScope<Details extends Record<string, string | undefined>>(
  kind: { noun: DecisionNoun },
  request: DecisionRequest<Details>,
  idempotencyKey: string | undefined,
): IdempotencyScope | undefined {
  if (idempotencyKey === undefined || request.decider.kind !== 'admin') return undefined;
  const fields: Record<string, string> = { id: request.id };
  for (const [name, value] of Object.entries(request.details)) if (value !== undefined) fields[`details.${name}`] = value;
  const operation = auditActionOf(kind.noun, request.outcome);
  return { userId: request.decider.userId, key: idempotencyKey, operation, requestHash: hashRequest(fields) };
}
