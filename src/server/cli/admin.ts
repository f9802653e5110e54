import { desc } from 'drizzle-orm';
import { mailOutbox, smsOutbox } from '../db/schema.ts';
import type { Database } from '../db/client.ts';
import { purgeKycImagesPastRetention } from '../features/kyc/documents/retention.ts';
import * as userRepository from '../features/users/repository.ts';
import { openToolDatabase } from './open-tool-database.ts';

const USAGE = `Usage:
  npm run admin -- promote <email>   give the account the admin role
  npm run admin -- demote <email>    take the admin role away at once (in the web app a second admin must confirm it)
  npm run admin -- outbox [count]     show the newest stored e-mails (when no SMTP_URL is set) and text messages (when no SMS_PROVIDER is set)
  npm run admin -- purge-kyc-images [--confirm]
                                     list the KYC images of accounts closed longer ago than the records' retention
                                     (Admin Settings, at least 5 years); with --confirm, purge them and list what was removed`;
const COMMANDS = ['promote', 'demote', 'outbox', 'purge-kyc-images'] as const;
type Command = (typeof COMMANDS)[number];
const isCommand = (value: string | undefined): value is Command => (COMMANDS as readonly (string | undefined)[]).includes(value);

/** Says what the purge found, and with --confirm removed: one line per account, then the totals. */
async function purgeKycImages(db: Database, argument: string | undefined): Promise<number> {
  if (argument !== undefined && argument !== '--confirm') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const purge = argument === '--confirm';
  const outcome = await purgeKycImagesPastRetention(db, { purge });
  const images = outcome.accounts.reduce((total, account) => total + account.images, 0);
  if (outcome.accounts.length === 0) {
    process.stdout.write(`No account closed more than ${outcome.retentionYears} years ago has KYC images left.\n`);
    return 0;
  }
  for (const account of outcome.accounts) {
    process.stdout.write(`${account.email} (${account.userId}), closed ${account.closedAt.toISOString().slice(0, 10)}: ${account.images} image(s)\n`);
  }
  const verb = purge ? 'Purged' : 'Would purge';
  process.stdout.write(`${verb} ${images} image(s) of ${outcome.accounts.length} account(s) closed more than ${outcome.retentionYears} years ago.\n`);
  if (!purge) process.stdout.write('Nothing was removed: run it again with --confirm to purge them.\n');
  if (outcome.moreRemain) process.stdout.write('More accounts are due: run the command again.\n');
  return 0;
}

async function main(): Promise<number> {
  const [command, argument] = process.argv.slice(2);
  if (!isCommand(command)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if ((command === 'promote' || command === 'demote') && !argument) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const runtime = await openToolDatabase();
  try {
    const { db } = runtime.database;
    if (command === 'purge-kyc-images') return await purgeKycImages(db, argument);
    if (command === 'promote') {
      const account = await userRepository.findCredentialsByEmail(db, argument as string);
      if (!account) {
        process.stderr.write(`No account has the e-mail ${argument}.\n`);
        return 1;
      }
      await userRepository.setRole(db, account.id, 'admin');
      process.stdout.write(`${account.email} is now an admin.\n`);
      return 0;
    }
    if (command === 'demote') {
      const account = await userRepository.findCredentialsByEmail(db, argument as string);
      if (!account) {
        process.stderr.write(`No account has the e-mail ${argument}.\n`);
        return 1;
      }
      // At least one admin always remains: the admins are locked, so two demotions at once cannot remove the last two.
      const outcome = await db.transaction(async (transaction) => {
        const admins = await userRepository.lockAdminIds(transaction);
        if (!admins.includes(account.id)) return `${account.email} is not an admin.`;
        if (admins.length === 1) return `${account.email} is the only admin: promote another account first.`;
        await userRepository.setRole(transaction, account.id, 'user');
        return undefined;
      });
      if (outcome !== undefined) {
        process.stderr.write(`${outcome}\n`);
        return 1;
      }
      process.stdout.write(`${account.email} is no longer an admin.\n`);
      return 0;
    }
    const count = Math.min(Math.max(Number(argument ?? 10) || 10, 1), 100);
    const messages = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(count);
    process.stdout.write(messages.length === 0 ? 'The mail outbox is empty.\n' : '=== E-mails\n');
    for (const message of messages) {
      process.stdout.write(`--- ${message.createdAt.toISOString()} to ${message.toAddress}: ${message.subject}\n`);
      process.stdout.write(`${message.delivered ? '(delivered through SMTP; the body is not kept)' : (message.textBody ?? message.lastError ?? '')}\n\n`);
    }
    const texts = await db.select().from(smsOutbox).orderBy(desc(smsOutbox.createdAt)).limit(count);
    process.stdout.write(texts.length === 0 ? 'The SMS outbox is empty.\n' : '=== Text messages\n');
    for (const text of texts) {
      process.stdout.write(`--- ${text.createdAt.toISOString()} SMS to ${text.toNumber}\n`);
      const kept = text.delivered
        ? `(sent through ${text.provider}; the text is not kept)`
        : (text.body ?? `(not sent through ${text.provider}: ${text.lastError ?? 'no answer yet'})`);
      process.stdout.write(`${kept}\n\n`);
    }
    return 0;
  } finally {
    await runtime.shutdown();
  }
}

// An explicit exit: the embedded database's exit hook would otherwise reset the exit code.
process.exit(await main());
