import type { AuditAction } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export interface AuditEntry {
  /** Null for what the system did on its own (an automatic on-chain credit). */
  actorUserId: string | null;
  action: AuditAction;
  targetType: string;
  targetId?: string | undefined;
  targetUserId?: string | undefined;
  before?: unknown;
  after?: unknown;
  ipAddress?: string | undefined;
}

/** Converts bigint amounts to decimal strings so that before/after fit in JSON. */
function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)));
}

/** Records an admin action in the same transaction as the action itself. */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await recordAudits(db, [entry]);
}

/** Rows per statement of recordAudits: well below PostgreSQL's limit of parameters a statement may have. */
const AUDIT_ROWS_PER_STATEMENT = 1_000;

/** Records several actions at once (an automatic credit of a range's deposits), in as few statements as the limit allows. */
export async function recordAudits(db: Executor, entries: readonly AuditEntry[]): Promise<void> {
  for (let start = 0; start < entries.length; start += AUDIT_ROWS_PER_STATEMENT) {
    await db.insert(auditLog).values(
      entries.slice(start, start + AUDIT_ROWS_PER_STATEMENT).map((entry) => ({
        actorUserId: entry.actorUserId,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        targetUserId: entry.targetUserId,
        before: toJson(entry.before),
        after: toJson(entry.after),
        ipAddress: entry.ipAddress,
      })),
    );
  }
}
