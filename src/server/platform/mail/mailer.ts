import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Accepts a message for delivery; with SMTP it resolves before the message is delivered. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Sends mail through SMTP when SMTP_URL is set. Every message is recorded in
 * mail_outbox; the body is kept only when there is no SMTP server, because then
 * the outbox is the mailbox a developer reads. Delivered bodies are not kept, so
 * the links they carry (password resets) are not stored anywhere in clear.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; db: Database; log: FastifyBaseLogger }): Mailer {
  const { smtpUrl, from, db, log } = options;
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return {
    async send(message) {
      if (!transport) {
        await db.insert(mailOutbox).values({ toAddress: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html });
        log.info({ to: message.to, subject: message.subject }, 'No SMTP_URL is set: the e-mail was stored in the mail outbox (npm run admin -- outbox)');
        return;
      }
      // The message is recorded now; delivery goes on after the request is answered, since waiting for the
      // SMTP server would make "reset my password" slower for real accounts than for unknown e-mails.
      const [row] = await db.insert(mailOutbox).values({ toAddress: message.to, subject: message.subject }).returning({ id: mailOutbox.id });
      if (!row) throw new Error('insert into mail_outbox returned no row');
      void transport
        .sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html })
        .then(() => db.update(mailOutbox).set({ delivered: true, sentAt: new Date(), attempts: 1 }).where(eq(mailOutbox.id, row.id)))
        .catch(async (error: unknown) => {
          const reason = error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
          log.error({ to: message.to, subject: message.subject, reason }, 'Sending an e-mail failed');
          await db.update(mailOutbox).set({ attempts: 1, lastError: reason }).where(eq(mailOutbox.id, row.id)).catch(() => undefined);
        });
    },
    close() {
      transport?.close();
    },
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
