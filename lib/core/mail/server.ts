import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/core/config";
import { piece } from "@/lib/core/runtime";

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Whether a message left for the SMTP server, and if not, why (for the person who sent it). */
type MailOutcome = { sent: true } | { sent: false; reason: string };

// A slow or dead SMTP server must not hold an invitation request for nodemailer's 2-minute default.
const TIMEOUT_MS = 10_000;

const mailer = () => piece("mailTransport", (): { url: string | null; transport: Transporter | null } => ({ url: null, transport: null }));

function transport(url: string): Transporter {
  const cached = mailer();
  if (cached.url !== url || !cached.transport) {
    cached.url = url;
    cached.transport = nodemailer.createTransport({ url, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
  }
  return cached.transport;
}

/**
 * Sends one message through `SWITCHBOARD_SMTP_URL` (e.g. `smtp://user:pass@mail.example.com:587`),
 * from `SWITCHBOARD_MAIL_FROM`. Never throws: without configuration it does nothing, and a
 * failure comes back as a reason, so mail is a convenience on top of an action, never its condition.
 */
export async function sendMail(message: MailMessage): Promise<MailOutcome> {
  const url = config().smtpUrl;
  if (!url) return { sent: false, reason: "Outgoing mail is not configured (SWITCHBOARD_SMTP_URL)" };
  try {
    const info = await transport(url).sendMail({ from: config().mailFrom, ...message });
    if (info.rejected?.length) return { sent: false, reason: `The mail server refused ${message.to}` };
    return { sent: true };
  } catch (err) {
    console.error("[mail] could not send", err);
    return { sent: false, reason: `The mail server did not take the message: ${err instanceof Error ? err.message : String(err)}` };
  }
}
