import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@partner/http';

/** The e-mails that sign people in: a link to the dashboard carrying a one-time token in its fragment. */
export class SignInMailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  /** Sent in the background: the sender learns nothing from how long the request took. */
  send(mail: { to: string; subject: string; text: string }): void {
    this.transport.sendMail({ from: this.from, ...mail }).catch((err: unknown) => {
      // The address is the only thing logged: the mail carries a sign-in token.
      this.logger.error(
        { err: { message: err instanceof Error ? err.message : String(err) }, to: mail.to },
        'could not send a sign-in e-mail',
      );
    });
  }

  close(): void {
    this.transport.close();
  }
}
