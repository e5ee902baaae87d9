import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`: give it to a service as SMTP_URL. */
  url: string;
  /** Mails received and not yet taken by `nextMailTo`, oldest first. */
  received: ReceivedMail[];
  /** Resolves with the next mail to `to` (already received or yet to come). */
  nextMailTo(to: string, options?: { timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A local SMTP server that keeps what it is sent: a real mail server, as far as nodemailer can tell,
 * for `pnpm start` (which prints the sign-in links it receives) and for tests. No TLS, no auth.
 */
export async function startMailbox(options: { port?: number; onMail?: (mail: ReceivedMail) => void } = {}): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const waiting: Array<{ to: string; resolve: (mail: ReceivedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
          };
          received.push(mail);
          options.onMail?.(mail);
          // One mail is taken once: by the first waiter for one of its addresses.
          const waiter = waiting.find((w) => mail.to.includes(w.to));
          if (waiter) {
            waiting.splice(waiting.indexOf(waiter), 1);
            waiter.resolve(mail);
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    nextMailTo: (to, { timeoutMs = 5_000 } = {}) => {
      const address = to.toLowerCase();
      const already = received.find((mail) => mail.to.includes(address));
      if (already) {
        received.splice(received.indexOf(already), 1);
        return Promise.resolve(already);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          to: address,
          resolve: (mail: ReceivedMail) => {
            clearTimeout(timer);
            received.splice(received.indexOf(mail), 1);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(waiter);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
