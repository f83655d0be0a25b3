import { SMTPServer } from "smtp-server";
import { freePort } from "./servers";

export interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every message it is given. */
export async function startSmtp() {
  const messages: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The invitation link in a received message (quoted-printable soft breaks undone). */
export function linkIn(raw: string): string | undefined {
  return raw.replace(/=\r?\n/g, "").match(/https?:\/\/\S+?\/invite\/sbi_[A-Za-z0-9_-]+/)?.[0];
}
