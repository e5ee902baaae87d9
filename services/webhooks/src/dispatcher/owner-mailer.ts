import nodemailer, { type Transporter } from 'nodemailer';
import { type Executor, findOwnerContactEmail } from '@partner/db';
import type { Logger } from '@partner/http';

/**
 * E-mail to an owner's contact address, when SMTP is configured (SMTP_URL). The notification record
 * and the log line are written whatever happens here; a mail that cannot be sent is logged, not retried.
 */
export class OwnerMailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(db: Executor, owner: { kind: 'restaurant' | 'integrator'; id: string }, subject: string, text: string): Promise<void> {
    const to = await findOwnerContactEmail(db, owner);
    if (!to) {
      this.logger.info({ owner: owner.id }, 'owner has no contact e-mail; notification recorded only');
      return;
    }
    try {
      await this.transport.sendMail({ from: this.from, to, subject, text });
    } catch (err) {
      this.logger.error({ err, owner: owner.id }, 'could not e-mail the owner');
    }
  }

  close(): void {
    this.transport.close();
  }
}
