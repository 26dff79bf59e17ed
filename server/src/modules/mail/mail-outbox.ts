import type { Language } from '@reelhouse/contract';
import type { JobHandlers, JobQueue } from '../../jobs/job-types.js';
import type { QueueLogger } from '../../jobs/queue-options.js';
import { newId } from '../../lib/ids.js';
import type { SendMail } from './mail-transport.js';
import type { MailRepository, MailRow } from './mail.repository.js';

/** A mail's kind and where it goes; what it says is made when it is sent. */
export interface MailRequest {
  kind: MailRow['kind'];
  to: string;
  userId: string | null;
  /** The site's address its links start with. */
  linkBase: string;
  /** The language of the request that asked for it: the mail's, unless the account has chosen one. */
  language: Language | null;
}

/** What a mail says; null when there is nothing to send after all (no such account, already done). */
export type ComposeMail = (mail: MailRow) => Promise<{ subject: string; text: string; html: string } | null>;

/**
 * A mail server that is down for a while loses no mail: with a first wait of a few seconds doubling
 * each time, twelve attempts span several hours.
 */
const MAIL_ATTEMPTS = 12;

/** Keeps a mail's row and asks for its `mail.send` job once the row is stored. */
export class MailOutbox {
  constructor(private readonly deps: { mails: MailRepository; queue: Pick<JobQueue, 'enqueue'> }) {}

  async send(request: MailRequest): Promise<void> {
    const id = newId();
    await this.deps.mails.insert({
      id,
      kind: request.kind,
      to_address: request.to,
      user_id: request.userId,
      link_base: request.linkBase,
      subject: null,
      text_body: null,
      html_body: null,
      language: request.language,
      created_at: Date.now(),
    });
    await this.deps.queue.enqueue('mail.send', { mailId: id }, { maxAttempts: MAIL_ATTEMPTS });
  }
}

/**
 * The `mail.send` job: composes the mail on its first attempt (keeping what it says, so a retry
 * sends the same link), hands it to the mail server, and removes the row once it is taken. A failed
 * attempt throws, and the queue tries again later. Addresses and links never reach the log.
 */
export class MailSender {
  constructor(private readonly deps: { mails: MailRepository; compose: ComposeMail; send: SendMail; logger: QueueLogger }) {}

  handlers(): JobHandlers {
    return { 'mail.send': ({ mailId }) => this.deliver(mailId) };
  }

  async deliver(mailId: string): Promise<void> {
    let row = await this.deps.mails.find(mailId);
    if (!row) return;
    if (row.text_body === null) {
      const composed = await this.deps.compose(row);
      if (!composed) {
        await this.deps.mails.delete(mailId);
        this.deps.logger.info({ mail: mailId, kind: row.kind }, 'nothing to mail');
        return;
      }
      const parts = { subject: composed.subject, text_body: composed.text, html_body: composed.html };
      await this.deps.mails.setComposed(mailId, parts);
      row = { ...row, ...parts };
    }
    try {
      await this.deps.send({ to: row.to_address, subject: row.subject!, text: row.text_body!, html: row.html_body! });
    } catch (err) {
      // The mail server's own words can quote the address: only the kind of failure is passed on.
      const code = (err as { code?: string }).code ?? 'unknown error';
      throw new Error(`The mail server did not take the mail (${code})`);
    }
    await this.deps.mails.delete(mailId);
    this.deps.logger.info({ mail: mailId, kind: row.kind }, 'mail sent');
  }
}
