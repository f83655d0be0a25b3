import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SharedCallView } from "@/components/shares/shared-call-view";
import { SharedRunView } from "@/components/shares/shared-run-view";
import { ShareGone, SharedPage } from "@/components/shares/shared-page";
import { formatTime } from "@/components/calls/format";
import { SwitchboardError } from "@/lib/core/errors";
import type { PublicShareDto } from "@/lib/domains/shares";
import { openShare } from "@/lib/domains/shares/server";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Shared on Switchboard", robots: { index: false, follow: false }, referrer: "no-referrer" };

export default async function SharedCallPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let shared: PublicShareDto | null = null;
  try {
    shared = await openShare(token);
  } catch (err) {
    if (!(err instanceof SwitchboardError)) throw err;
    if (err.code === "gone") return <ShareGone reason={err.message} />;
    if (err.code !== "not_found") throw err;
  }
  if (!shared) notFound();
  const footer = (
    <p className="text-xs text-muted">
      Shared {formatTime(shared.share.createdAt)}
      {shared.share.expiresAt ? `; the link expires ${formatTime(shared.share.expiresAt)}` : ""}. Fields such as passwords and tokens are masked.
    </p>
  );
  if (shared.kind === "run") {
    return (
      <SharedPage what="run">
        <SharedRunView run={shared.run} footer={footer} />
      </SharedPage>
    );
  }
  return (
    <SharedPage>
      <SharedCallView call={shared.call} footer={footer} />
    </SharedPage>
  );
}
