import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { findIfscBranch, storeIfscBranch, type IfscBranchAnswer } from './ifsc-branch-repository.ts';

/*
 * The branch of an IFSC (decision 067). The offline dataset (ifsc-directory.ts) decides whether a code exists and
 * names its bank; the branch comes from the IFSC API (Razorpay's public one by default: GET {url}/{IFSC}, JSON with
 * BANK, BRANCH, CITY, ...; 404 for a code it does not know). Its answer is kept in ifsc_branches, so each code is
 * asked once. An API that is slow, down or strange leaves the branch unknown: the customer sees the bank only and
 * nothing is kept, so a later lookup asks again.
 */

const TIMEOUT_MILLISECONDS = 3_000;
const MAX_BODY_CHARACTERS = 20_000;
/** Codes asked at once by this process; beyond it a lookup answers without the branch rather than queue. */
const MAX_CODES_IN_FLIGHT = 50;

const answerSchema = z.object({ BRANCH: z.string().optional(), CITY: z.string().optional() });

/** At most one request per code at a time: a second lookup of the code waits for the first one's answer. By database, as tests run several apps in one process. */
const inFlightByDatabase = new WeakMap<Executor, Map<string, Promise<string | null>>>();

/** Trimmed and cut to the column's length; an empty text is no value. */
function textOf(value: string | undefined, maxLength: number): string | null {
  const trimmed = value?.trim().slice(0, maxLength).trim();
  return trimmed ? trimmed : null;
}

/** The API's answer for the code, or undefined when it gave none worth keeping. */
async function askApi(apiUrl: string, ifscCode: string, log: FastifyBaseLogger): Promise<IfscBranchAnswer | undefined> {
  try {
    const response = await fetch(`${apiUrl}/${encodeURIComponent(ifscCode)}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MILLISECONDS),
    });
    const text = await response.text();
    if (response.status === 404) return { ifscCode, found: false, branchName: null, city: null };
    if (!response.ok || text.length > MAX_BODY_CHARACTERS) {
      log.warn({ ifscCode, status: response.status }, 'The IFSC API did not answer with a branch; the bank alone is shown');
      return undefined;
    }
    const answer = answerSchema.parse(JSON.parse(text));
    const branchName = textOf(answer.BRANCH, 200);
    return { ifscCode, found: branchName !== null, branchName, city: branchName === null ? null : textOf(answer.CITY, 100) };
  } catch (error) {
    log.warn({ ifscCode, problem: error instanceof Error ? error.message : String(error) }, 'The IFSC API could not be asked; the bank alone is shown');
    return undefined;
  }
}

/** What was kept for the code, or the API's answer now, kept. */
async function lookUpAndKeep(db: Executor, apiUrl: string, ifscCode: string, log: FastifyBaseLogger): Promise<string | null> {
  const kept = await findIfscBranch(db, ifscCode);
  if (kept !== undefined) return kept.branchName;
  const answer = await askApi(apiUrl, ifscCode, log);
  if (answer === undefined) return null;
  await storeIfscBranch(db, answer);
  return answer.branchName;
}

/**
 * The branch name of a code the offline dataset knows (upper case), from what the API said before or by asking it
 * now; null when it is not known (API off, unreachable, or not knowing the code). Never throws for the API's sake.
 * A lookup in progress covers reading the kept answer too: a lookup that starts after it ends reads what it kept.
 */
export async function branchOfIfsc(db: Executor, apiUrl: string | undefined, ifscCode: string, log: FastifyBaseLogger): Promise<string | null> {
  if (apiUrl === undefined) return (await findIfscBranch(db, ifscCode))?.branchName ?? null;
  const inFlight = inFlightByDatabase.get(db) ?? new Map<string, Promise<string | null>>();
  inFlightByDatabase.set(db, inFlight);
  const inProgress = inFlight.get(ifscCode);
  if (inProgress !== undefined) return inProgress;
  if (inFlight.size >= MAX_CODES_IN_FLIGHT) return (await findIfscBranch(db, ifscCode))?.branchName ?? null;
  const lookup = lookUpAndKeep(db, apiUrl, ifscCode, log).finally(() => inFlight.delete(ifscCode));
  inFlight.set(ifscCode, lookup);
  return lookup;
}
