import nodemailer from "nodemailer";

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Checks the SMTP connection (used by /api/health). */
  verify(): Promise<void>;
  close(): void;
}

export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
  /** Only for the embedded mail catcher: accept its self-signed certificate. Real servers are verified. */
  allowSelfSigned?: boolean;
}

export function createSmtpMailer(config: SmtpConfig): Mailer {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.password ?? "" } : undefined,
    tls: { rejectUnauthorized: !config.allowSelfSigned },
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    // Well under the outbox's two-minute lease on a message being sent.
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      await transport.sendMail({ from: config.from, ...message });
    },
    async verify() {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}
