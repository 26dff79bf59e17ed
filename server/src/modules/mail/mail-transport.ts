import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Hands a mail to the mail server; rejects when the server cannot be reached or refuses it. */
export type SendMail = (mail: OutgoingMail) => Promise<void>;

/** SMTP through nodemailer: smtp:// (STARTTLS when the server offers it) or smtps://, credentials in the URL. */
export function smtpSender(smtpUrl: string, from: string): SendMail {
  const transport = nodemailer.createTransport(smtpUrl, { from });
  // Short enough that a mail server that is down fails the attempt quickly and the queue retries it later.
  Object.assign(transport.options, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 });
  return async (mail) => {
    await transport.sendMail(mail);
  };
}
