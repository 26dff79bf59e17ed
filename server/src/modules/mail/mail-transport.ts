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
  // Timeouts short enough that a mail server that is down fails the attempt soon, and the queue tries again later.
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 }, { from });
  return async (mail) => {
    await transport.sendMail(mail);
  };
}
