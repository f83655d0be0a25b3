import type { Role } from "@/lib/core/access";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The invitation message: plain text first (the link on a line of its own), and a small HTML twin. */
export function invitationMail({ url, workspaceName, inviterName, role }: { url: string; workspaceName: string; inviterName: string; role: Role }) {
  const subject = `${inviterName} invited you to ${workspaceName} on Switchboard`;
  const text = [
    `${inviterName} invited you to join the workspace "${workspaceName}" on Switchboard as ${role === "admin" || role === "owner" ? "an" : "a"} ${role}.`,
    "",
    "Open this link to accept (it works once and expires in 7 days):",
    "",
    url,
    "",
    "If you did not expect this invitation, you can ignore this message.",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(inviterName)} invited you to join the workspace <strong>${escapeHtml(workspaceName)}</strong> on Switchboard as ${escapeHtml(role)}.</p>`,
    `<p><a href="${escapeHtml(url)}">Accept the invitation</a> (it works once and expires in 7 days).</p>`,
    `<p style="color:#666">If you did not expect this invitation, you can ignore this message.</p>`,
  ].join("\n");
  return { subject, text, html };
}
