import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailServer {
  port: number;
  /** SMTP_URL for an app that sends here. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to this address (with this subject, if given) not yet taken by an earlier call; fails after timeoutMs. */
  next(to: string, subject?: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (smtp-server), every message parsed (mailparser) as it arrives. */
export async function startMailServer(port = 0): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address).join(','),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as { port: number }).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    received,
    async next(to, subject, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => m.to === to && (subject === undefined || m.subject === subject) && !taken.has(m));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > until) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the first link in a mail's text that leads to `page` (/reset-password, /verify-email). */
export function linkToken(mail: ReceivedMail, page: string): { url: URL; token: string } {
  const match = new RegExp(`https?://\\S+${page}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  if (!match) throw new Error(`no ${page} link in the mail: ${mail.text}`);
  const url = new URL(match[0]);
  return { url, token: url.searchParams.get('token')! };
}
