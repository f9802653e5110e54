-- Data at scale for `npm run bench -- --scale`, made in SQL with generate_series (the API would take
-- hours): 100,000 customers, each with a wallet, a bank account, 6 deposits, 2 withdrawals and
-- 2 transfers (1,000,000 history rows) and the ledger movements they imply (about 1,400,000 rows).
-- About one customer in fifty has a pending deposit, withdrawal and transfer, for the admin queues.
-- Wallet and house balances are computed from the movements, so the ledger check passes.
-- Only for a throw-away benchmark database.

create temporary table seed_customers as
select i,
       gen_random_uuid() as id,
       now() - interval '2 days' - i * interval '5 minutes' as created_at
from generate_series(0, 99999) as i;

create unique index on seed_customers (i);

insert into users (id, email, password_hash, created_at, updated_at)
select id, 'customer-' || lpad(i::text, 6, '0') || '@example.com',
       -- Nobody signs in as a seeded customer; any argon2 string will do.
       '$argon2id$v=19$m=19456,t=2,p=1$c2VlZHNlZWRzZWVk$3v5wHPAnbvUkhc9UomZhcHRA/y6QSL3fY1Bn4KD9wrU',
       created_at, created_at
from seed_customers;

-- 20 given names times 40 surnames; "Kumar" is one surname in forty (2,500 customers).
insert into profiles (user_id, name, phone, role, vip_level, referral_code, created_at, updated_at)
select id,
       (array['Aarav','Vivaan','Aditya','Vihaan','Arjun','Sai','Reyansh','Ayaan','Krishna','Ishaan',
              'Ananya','Diya','Saanvi','Aadhya','Pari','Anika','Navya','Myra','Sara','Riya'])[1 + i % 20]
       || ' ' ||
       (array['Sharma','Verma','Gupta','Singh','Kumar','Patel','Reddy','Nair','Iyer','Menon',
              'Das','Bose','Ghosh','Mehta','Shah','Joshi','Rao','Pillai','Chopra','Kapoor',
              'Malhotra','Bhatia','Saxena','Agarwal','Mishra','Pandey','Tiwari','Dubey','Yadav','Jain',
              'Sinha','Chauhan','Thakur','Naidu','Kulkarni','Deshpande','Banerjee','Mukherjee','Sethi','Arora'])[1 + (i / 20) % 40],
       '+91' || (7000000000 + i * 13)::text,
       'user',
       case when i % 20 = 7 then 'vip' else 'normal' end,
       'SEEDA' || lpad(i::text, 5, '0'),
       created_at, created_at
from seed_customers;

insert into ledger_accounts (kind, user_id, balance_usdt_micros, created_at)
select 'customer_wallet', id, 0, created_at from seed_customers;

create temporary table seed_wallets as
select c.i, c.id as user_id, a.id as account_id, c.created_at
from seed_customers c join ledger_accounts a on a.user_id = c.id;

create unique index on seed_wallets (i);

insert into bank_accounts (user_id, account_holder_name, account_number, bank_name, ifsc_code, created_at, updated_at)
select id, 'Seeded Customer', lpad((100000000 + i)::text, 12, '0'), 'State Bank of India', 'SBIN0001234', created_at, created_at
from seed_customers;

-- Deposits: the sixth deposit of every fiftieth customer is pending.
create temporary table seed_deposits as
select gen_random_uuid() as id, c.i, c.id as user_id, d,
       (25 + c.i % 7)::bigint * 1000000 as amount_usdt_micros,
       case when c.i % 50 = 0 and d = 6 then 'pending' else 'approved' end as status,
       c.created_at + d * interval '3 hours' as created_at
from seed_customers c cross join generate_series(1, 6) as d;

insert into usdt_deposits (id, user_id, network, amount_usdt_micros, transaction_hash, deposit_address, status, created_at, decided_at)
select id, user_id, 'TRC20', amount_usdt_micros, md5('deposit-a-' || i || '-' || d) || md5('deposit-b-' || i || '-' || d),
       'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', status, created_at,
       case when status = 'pending' then null else created_at + interval '10 minutes' end
from seed_deposits;

insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id, created_at)
select (select id from ledger_accounts where kind = 'deposits_received' and user_id is null), w.account_id,
       d.amount_usdt_micros, 'deposit_credit', d.id, d.created_at + interval '10 minutes'
from seed_deposits d join seed_wallets w on w.i = d.i
where d.status = 'approved';

-- Withdrawals of 10 USDT at 83.00 INR: the second one of every fiftieth customer (offset 1) is pending.
create temporary table seed_withdrawals as
select gen_random_uuid() as id, c.i, c.id as user_id, n,
       case when c.i % 50 = 1 and n = 2 then 'pending' else 'approved' end as status,
       c.created_at + (20 + n) * interval '1 hour' as created_at
from seed_customers c cross join generate_series(1, 2) as n;

insert into withdrawal_requests (id, user_id, account_holder_name, account_number, bank_name, ifsc_code, amount_usdt_micros, rate_inr_paise,
                                 rate_tier, amount_inr_paise, status, created_at, approved_at, decided_at, payout_reference)
select id, user_id, 'Seeded Customer', lpad((100000000 + i)::text, 12, '0'), 'State Bank of India', 'SBIN0001234', 10000000, 8300,
       'normal', 83000, status, created_at,
       case when status = 'approved' then created_at + interval '1 hour' end,
       case when status = 'approved' then created_at + interval '1 hour' end,
       case when status = 'approved' then 'UTR' || i || n end
from seed_withdrawals;

insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id, created_at)
select w.account_id, (select id from ledger_accounts where kind = 'withdrawals_pending' and user_id is null), 10000000, 'withdrawal_hold', r.id, r.created_at
from seed_withdrawals r join seed_wallets w on w.i = r.i;

insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id, created_at)
select (select id from ledger_accounts where kind = 'withdrawals_pending' and user_id is null),
       (select id from ledger_accounts where kind = 'withdrawals_paid' and user_id is null), 10000000, 'withdrawal_payout', r.id, r.created_at + interval '1 hour'
from seed_withdrawals r
where r.status = 'approved';

-- Transfers of 5 USDT to the next customer: the second one of every fiftieth customer (offset 2) is pending.
create temporary table seed_transfers as
select gen_random_uuid() as id, c.i, c.id as sender_user_id, (c.i + 1) % 100000 as recipient_i, n,
       case when c.i % 50 = 2 and n = 2 then 'pending' else 'approved' end as status,
       c.created_at + (30 + n) * interval '1 hour' as created_at
from seed_customers c cross join generate_series(1, 2) as n;

insert into transfers (id, sender_user_id, recipient_user_id, amount_usdt_micros, status, created_at, decided_at)
select t.id, t.sender_user_id, r.user_id, 5000000, t.status, t.created_at,
       case when t.status = 'approved' then t.created_at + interval '1 hour' end
from seed_transfers t join seed_wallets r on r.i = t.recipient_i;

insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id, created_at)
select w.account_id, (select id from ledger_accounts where kind = 'transfers_pending' and user_id is null), 5000000, 'transfer_hold', t.id, t.created_at
from seed_transfers t join seed_wallets w on w.i = t.i;

insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id, created_at)
select (select id from ledger_accounts where kind = 'transfers_pending' and user_id is null), r.account_id, 5000000, 'transfer_credit', t.id,
       t.created_at + interval '1 hour'
from seed_transfers t join seed_wallets r on r.i = t.recipient_i
where t.status = 'approved';

-- Every balance (customer and house) as the sum of its movements in minus out.
update ledger_accounts a
set balance_usdt_micros = m.balance
from (
  select account_id, sum(amount) as balance
  from (
    select to_account_id as account_id, amount_usdt_micros as amount from ledger_transfers
    union all
    select from_account_id, -amount_usdt_micros from ledger_transfers
  ) as movements
  group by account_id
) as m
where a.id = m.account_id and a.balance_usdt_micros <> m.balance;
