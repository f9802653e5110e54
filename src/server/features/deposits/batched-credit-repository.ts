/**
 * The chain follower's credit of a group of transfers to customers' own deposit addresses, as ONE
 * statement: the deposits inserted on the credit key, and for the rows actually inserted and approved
 * the referral rewards, the ledger entries and balances, the audit rows, the notifications and the
 * events.
 *
 * Why one statement: `npm run bench -- --follower-only --rounds 3 --follower-blocks 1000`
 * (bench/follower.ts, RESULTS.md round 20) counted about twenty statements for each group of four
 * 50-block ranges, sixteen of them the credit (insert, read back, referrers, rewards, account locks,
 * balances, ledger rows, audit, languages, notifications, three of events), each a round trip that
 * waits for PostgreSQL and for the follower's busy event loop. The same work is one round trip here
 * and one before it (lockChainTransactions, which the follower keeps).
 *
 * The rules are those of the decision flow's approval (deposits/service.ts, approvalSettlement) and
 * of moveMoney (platform/ledger): the service computes every amount and text; this statement only
 * decides which rows exist. It is the one place besides moveMoney that changes a balance, and it
 * moves money only out of house accounts (deposits_received, referral_rewards) into wallets, so no
 * conditional debit can fail; the accounts are locked in ascending id order before any is changed.
 */
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn } from '../../db/prepared.ts';

/** One candidate deposit: a final transfer to a customer's own address, with what the service computed for it. */
export interface BatchedCreditRow {
  /** Chosen by the service, so that the notice's texts can name the deposit before it exists. */
  id: string;
  userId: string;
  amountUsdtMicros: bigint;
  transactionHash: string;
  toAddress: string;
  fromAddress: string;
  /** The transfer's position within its transaction: with network and hash, the credit key. */
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  /** At least the minimum deposit: credited at once; else recorded as below the minimum for an admin. */
  approved: boolean;
  /** The rewards the deposit pays its customer's referrer and that referrer's referrer, when they exist. */
  level1RewardUsdtMicros: bigint;
  level2RewardUsdtMicros: bigint;
  /** The customer's notice when it is credited (null when below the minimum), in English and in Hindi. */
  notice: { link: string; english: BatchedCreditTexts; hindi: BatchedCreditTexts } | null;
}

export interface BatchedCreditTexts {
  title: string;
  body: string;
  emailSubject: string;
  emailText: string;
}

export interface BatchedCreditResult {
  inserted: { id: string; userId: string; status: 'approved' | 'pending' }[];
  movements: number;
  movementsWithAccounts: number;
  accountsToChange: number;
  accountsChanged: number;
  transfersRecorded: number;
}

const creditStatement = preparedStatement<BatchedCreditResult>(
  'deposits_batched_credit',
  `with input as (
     select * from unnest($2::uuid[], $3::uuid[], $4::bigint[], $5::text[], $6::text[], $7::int[], $8::text[], $9::bigint[], $10::text[],
       $11::boolean[], $12::bigint[], $13::bigint[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[],
       $21::text[], $22::text[])
     as t(id, user_id, amount, transaction_hash, to_address, log_index, from_address, block_number, block_hash,
       approved, level1_reward, level2_reward, link, title, body, email_subject, email_text,
       hindi_title, hindi_body, hindi_email_subject, hindi_email_text)
   ),
   inserted as (
     insert into usdt_deposits (
       id, user_id, network, amount_usdt_micros, transaction_hash, deposit_address, chain_log_index, source, status, decided_at,
       chain_state, chain_problem, chain_amount_usdt_micros, chain_from_address, chain_to_address, chain_block_number, chain_block_hash,
       chain_checked_at, chain_delayed, chain_sender_proven)
     select id, user_id, $1::text, amount, transaction_hash, to_address, log_index, 'detected',
       case when approved then 'approved' else 'pending' end,
       case when approved then now() end,
       case when approved then 'confirmed' else 'mismatch' end,
       case when approved then null else 'below_minimum' end,
       amount, from_address, to_address, block_number, block_hash, now(), false, true
     from input
     on conflict (network, transaction_hash, chain_log_index) where chain_log_index is not null and status <> 'rejected' do nothing
     returning id, user_id, status
   ),
   -- Who referred each customer to credit, and who referred that referrer: never the customer, never twice the same.
   candidate_referrers as (
     select i.id, i.user_id, p1.referred_by_user_id as level1, p2.referred_by_user_id as level2, i.level1_reward, i.level2_reward
     from input i
     join profiles p1 on p1.user_id = i.user_id
     left join profiles p2 on p2.user_id = p1.referred_by_user_id
     where i.approved and p1.referred_by_user_id is not null and p1.referred_by_user_id <> i.user_id
   ),
   candidate_rewards as (
     select id as deposit_id, user_id as referred_user_id, level1 as referrer_user_id, 1 as level, level1_reward as reward
     from candidate_referrers where level1_reward > 0
     union all
     select id, user_id, level2, 2, level2_reward
     from candidate_referrers where level2 is not null and level2 <> user_id and level2 <> level1 and level2_reward > 0
   ),
   -- Every account a credit may touch, locked in ascending id order as moveMoney locks them.
   -- (Found by id: one condition with an "or" scanned all of the customers' accounts.)
   locked as materialized (
     select id, kind, user_id from ledger_accounts
     where id in (
       select id from ledger_accounts
       where kind = 'customer_wallet' and user_id in (select user_id from input where approved union select referrer_user_id from candidate_rewards)
       union all
       select id from ledger_accounts where user_id is null and kind in ('deposits_received', 'referral_rewards'))
     order by id
     for update
   ),
   -- The inserted approved rows; the count (run once, before the first row) takes every lock before any balance changes.
   credited as (
     select input.* from inserted join input using (id)
     where inserted.status = 'approved' and (select count(*) from locked) >= 0
   ),
   rewards as (
     select r.* from candidate_rewards r join credited c on c.id = r.deposit_id
   ),
   movements as (
     select 'deposits_received' as from_kind, user_id as to_user_id, amount, 'deposit_credit' as reason, id as reference_id from credited
     union all
     select 'referral_rewards', referrer_user_id, reward, 'referral_reward', deposit_id from rewards
   ),
   movement_accounts as (
     select source.id as from_id, target.id as to_id, m.amount, m.reason, m.reference_id
     from movements m
     join locked source on source.user_id is null and source.kind = m.from_kind
     join locked target on target.kind = 'customer_wallet' and target.user_id = m.to_user_id
   ),
   changes as (
     select id, sum(change)::bigint as change
     from (select from_id as id, -amount as change from movement_accounts union all select to_id, amount from movement_accounts) as sides
     group by id
   ),
   changed as (
     update ledger_accounts a set balance_usdt_micros = a.balance_usdt_micros + changes.change
     from changes where a.id = changes.id
     returning a.id
   ),
   moved as (
     insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id)
     select from_id, to_id, amount, reason, reference_id from movement_accounts
     returning id
   ),
   reward_rows as (
     insert into referral_rewards (referrer_user_id, referred_user_id, deposit_id, level, reward_usdt_micros)
     select referrer_user_id, referred_user_id, deposit_id, level, reward from rewards
   ),
   audits as (
     insert into audit_log (actor_user_id, action, target_type, target_id, target_user_id, before, after)
     select null, 'deposit.approve', 'deposit', c.id::text, c.user_id, '{"status":"pending"}'::jsonb,
       jsonb_build_object('status', 'approved', 'amountUsdtMicros', c.amount::text, 'referralRewards', coalesce(
         (select jsonb_agg(jsonb_build_object('userId', r.referrer_user_id, 'level', r.level, 'rewardUsdtMicros', r.reward::text) order by r.level)
          from rewards r where r.deposit_id = c.id), '[]'::jsonb))
     from credited c
   ),
   notices as (
     insert into notifications (user_id, kind, title, body, link, email_subject, email_text)
     select c.user_id, 'deposit_credited',
       case when p.language = 'hi' then c.hindi_title else c.title end,
       case when p.language = 'hi' then c.hindi_body else c.body end,
       c.link,
       case when p.language = 'hi' then c.hindi_email_subject else c.email_subject end,
       case when p.language = 'hi' then c.hindi_email_text else c.email_text end
     from credited c left join profiles p on p.user_id = c.user_id
     returning user_id
   ),
   below_minimum as (select user_id from inserted where status <> 'approved'),
   -- The events decideInTransaction and createNotifications publish, written as JSON.stringify writes them.
   events as (
     select 1 as part, '{"type":"wallet.updated","userId":"' || user_id || '","reason":"deposit.detected"}' as payload from below_minimum
     union all select 2, '{"type":"admin.queue.updated"}' where exists (select 1 from below_minimum)
     union all select 3, '{"type":"wallet.updated","userId":"' || user_id || '","reason":"deposit.approved"}' from credited
     union all select 4, '{"type":"wallet.updated","userId":"' || referrer_user_id || '","reason":"referral.reward"}' from rewards
     union all select distinct 5, '{"type":"wallet.updated","userId":"' || user_id || '","reason":"' || $24::text || '"}' from notices
     union all select 6, '{"type":"admin.queue.updated"}' where exists (select 1 from credited)
   ),
   published as (
     select count(pg_notify($23::text, payload)) as count from (select payload from events order by part) as ordered
   )
   select
     (select coalesce(json_agg(json_build_object('id', id, 'userId', user_id, 'status', status)), '[]'::json) from inserted) as "inserted",
     (select count(*) from movements)::int as "movements",
     (select count(*) from movement_accounts)::int as "movementsWithAccounts",
     (select count(*) from changes)::int as "accountsToChange",
     (select count(*) from changed)::int as "accountsChanged",
     (select count(*) from moved)::int as "transfersRecorded",
     (select count from published)::int as "eventsPublished"`,
);

/**
 * Inserts the candidates as deposits on the credit key (network, transaction hash, position), and
 * credits the ones inserted approved, all in one statement (see the top of this file). A candidate
 * whose transfer a deposit already stands for inserts nothing and is not among `inserted`.
 */
export async function creditInOneStatement(
  db: Executor,
  network: DepositNetwork,
  rows: readonly BatchedCreditRow[],
  events: { channel: string; notificationReason: string },
): Promise<BatchedCreditResult> {
  const column = <Value>(pick: (row: BatchedCreditRow) => Value) => rows.map(pick);
  const text = (pick: (texts: BatchedCreditTexts) => string, language: 'english' | 'hindi') =>
    column((row) => (row.notice === null ? null : pick(row.notice[language])));
  const [result] = await queryPreparedIn(db, creditStatement, [
    network,
    column((row) => row.id),
    column((row) => row.userId),
    column((row) => row.amountUsdtMicros.toString()),
    column((row) => row.transactionHash),
    column((row) => row.toAddress),
    column((row) => row.logIndex),
    column((row) => row.fromAddress),
    column((row) => row.blockNumber.toString()),
    column((row) => row.blockHash),
    column((row) => row.approved),
    column((row) => row.level1RewardUsdtMicros.toString()),
    column((row) => row.level2RewardUsdtMicros.toString()),
    column((row) => row.notice?.link ?? null),
    text((texts) => texts.title, 'english'),
    text((texts) => texts.body, 'english'),
    text((texts) => texts.emailSubject, 'english'),
    text((texts) => texts.emailText, 'english'),
    text((texts) => texts.title, 'hindi'),
    text((texts) => texts.body, 'hindi'),
    text((texts) => texts.emailSubject, 'hindi'),
    text((texts) => texts.emailText, 'hindi'),
    events.channel,
    events.notificationReason,
  ]);
  if (result === undefined) throw new Error('the batched credit answered no row');
  return result;
}
