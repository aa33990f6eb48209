import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';

/**
 * Outgoing email. With SMTP_URL (smtp://user:pass@host:587, smtps://…) messages go through
 * that server; without it each message is written as an .eml file to DATA_DIR/outbox and
 * logged, so a department without a mail server can still open the links it contains.
 * The sender is MAIL_FROM when set.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
}

export interface MailResult {
  delivery: 'smtp' | 'outbox';
  /** The .eml file, for outbox delivery. */
  file?: string | undefined;
}

export interface Mailer {
  send(message: MailMessage): Promise<MailResult>;
  close(): void;
}

const DEFAULT_FROM = 'PalaYan Admin <no-reply@palayan.local>';

export function outboxDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'outbox');
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'dataDir'>,
  log: FastifyBaseLogger,
  from = process.env.MAIL_FROM || DEFAULT_FROM,
): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    } satisfies SMTPTransport.Options);
    return {
      async send(message) {
        await transport.sendMail({ from, ...message });
        log.info({ to: message.to, subject: message.subject }, 'email sent over SMTP');
        return { delivery: 'smtp' };
      },
      close: () => transport.close(),
    };
  }

  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = outboxDir(config);
  return {
    async send(message) {
      const info = await composer.sendMail({ from, ...message });
      await fsp.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}_${crypto.randomUUID().slice(0, 8)}.eml`);
      await fsp.writeFile(file, info.message as Buffer, { mode: 0o600 });
      // No mail server: the log says where the message is, never what it says (it may hold a
      // single-use link); an operator opens the file to pass the link on.
      log.warn({ to: message.to, subject: message.subject, file }, 'SMTP_URL is not set: email written to the outbox');
      return { delivery: 'outbox', file };
    },
    close: () => composer.close(),
  };
}

const mailers = new WeakMap<object, Mailer>();

/** The app's one mailer (one SMTP connection pool), made on first use. */
export function mailerFor(ctx: { config: Pick<Config, 'smtpUrl' | 'dataDir'>; log: FastifyBaseLogger }): Mailer {
  // By the app's configuration, which a context in a command (inCommand) shares with the app's.
  let mailer = mailers.get(ctx.config);
  if (!mailer) {
    mailer = createMailer(ctx.config, ctx.log);
    mailers.set(ctx.config, mailer);
  }
  return mailer;
}
