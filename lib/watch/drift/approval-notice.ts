import "server-only";
import { decryptJson } from "@/lib/core/crypto";
import type { ApprovalNotice } from "@/lib/domains/approvals/server";
import { raiseAlert } from "@/lib/watch/alerts/server";
import * as q from "./queries";

/**
 * A call waiting for a person, told by mail and webhook to those who watch its server (the
 * Changes tab's watch: the people who hear about this server). Without targets nothing is
 * recorded here: the console's badge, page and live notice already show it.
 */
export async function noticeApproval(notice: ApprovalNotice): Promise<void> {
  const watch = await q.findWatch({ serverId: notice.serverId });
  if (!watch) return;
  const targets = { mail: JSON.parse(watch.mail) as string[], webhooks: decryptJson<string[]>(watch.webhooks) };
  if (!targets.mail.length && !targets.webhooks.length) return;
  const who = notice.requesterName ?? (notice.client ? `the host ${notice.client}` : "a monitor");
  const until = notice.expiresAt.toISOString().slice(0, 16).replace("T", " ");
  await raiseAlert({
    workspaceId: notice.workspaceId,
    event: "approval-requested",
    server: { id: notice.serverId, name: notice.serverName },
    path: "/approvals",
    text: `Approval needed: ${who} calls ${notice.serverName} · ${notice.name} (rule "${notice.ruleName}"); no decision by ${until} UTC is a denial`,
    targets,
  });
}
