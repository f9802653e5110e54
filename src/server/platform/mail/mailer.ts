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
        // Logs carry the outbox row's id, never the address: logs are kept longer and read more widely than the database.
        const [stored] = await db
          .insert(mailOutbox)
          .values({ toAddress: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html })
          .returning({ id: mailOutbox.id });
        log.info({ mailId: stored?.id }, 'No SMTP_URL is set: the e-mail was stored in the mail outbox (npm run admin -- outbox)');
        return;
      }
      // The message is recorded now; delivery goes on after the request is answered, since waiting for the
      // SMTP server would make "reset my password" slower for real accounts than for unknown e-mails.
      const [row] = await db.insert(mailOutbox).values({ toAddress: message.to, subject: message.subject }).returning({ id: mailOutbox.id });
      if (!row) throw new Error('insert into mail_outbox returned no row');
      // Even composing the message is left until after the answer is on its way (setImmediate runs after the reply's write).
      setImmediate(() => {
        void transport
          .sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html })
          .then(() => db.update(mailOutbox).set({ delivered: true, sentAt: new Date(), attempts: 1 }).where(eq(mailOutbox.id, row.id)))
          .catch(async (error: unknown) => {
            // SMTP servers quote the recipient in their refusals ("550 <x@example.com>: unknown user").
            const reason = error instanceof Error ? error.message.slice(0, 500).replace(/[^\s<>@]+@[^\s<>@]+/g, '[address]') : 'unknown error';
            log.error({ mailId: row.id, reason }, 'Sending an e-mail failed');
            await db
              .update(mailOutbox)
              .set({ attempts: 1, lastError: reason })
              .where(eq(mailOutbox.id, row.id))
              .catch(() => undefined);
          });
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

/** A plain e-mail of a few paragraphs and a signature, as text and HTML. */
export function paragraphsMessage(options: { to: string; subject: string; paragraphs: readonly string[]; signature: string }): MailMessage {
  const { paragraphs, signature } = options;
  return {
    to: options.to,
    subject: options.subject,
    text: [...paragraphs, '', `- ${signature}`].join('\n'),
    html: `${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('')}<p>${escapeHtml(signature)}</p>`,
  };
}

/**
 * The e-mail that carries a single-use link (a password or a PIN reset): what was asked for, the
 * link and how long it works, and what to do when the reader did not ask for it, as text and HTML.
 */
export function singleUseLinkMessage(options: {
  to: string;
  subject: string;
  /** "We received a request to ..." */
  request: string;
  /** "... to choose a new password:" */
  purpose: string;
  linkText: string;
  link: string;
  lifetimeMinutes: number;
  ifNotAsked: string;
  signature: string;
  /** The whole opening line, for a language whose word order differs from "Open this link within N minutes ...". */
  opening?: string;
}): MailMessage {
  const { request, purpose, link, lifetimeMinutes, ifNotAsked, signature } = options;
  const opening = options.opening ?? `Open this link within ${lifetimeMinutes} minutes ${purpose}`;
  return {
    to: options.to,
    subject: options.subject,
    text: [request, '', opening, link, '', ifNotAsked, '', `- ${signature}`].join('\n'),
    html: `<p>${escapeHtml(request)}</p><p>${escapeHtml(opening)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(options.linkText)}</a></p><p>${escapeHtml(ifNotAsked)}</p><p>${escapeHtml(signature)}</p>`,
  };
}
