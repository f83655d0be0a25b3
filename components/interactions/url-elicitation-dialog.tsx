"use client";

import { Dialog } from "@/components/ui/dialog";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/alert";
import type { InteractionDto } from "@/lib/domains/interactions";
import { AskedBy } from "./asked-by";
import { useAnswer } from "./use-answer";

/** Splits a URL so its host can be highlighted; null when it is not an http(s) URL. */
export function splitUrl(raw: string): { before: string; host: string; after: string } | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const start = raw.indexOf(url.host);
  if (start < 0) return { before: `${url.protocol}//`, host: url.host, after: url.href.slice(url.protocol.length + 2 + url.host.length) };
  return { before: raw.slice(0, start), host: url.host, after: raw.slice(start + url.host.length) };
}

/**
 * URL-mode elicitation: shows the full URL with its domain highlighted and asks consent. The link
 * is opened in a new tab only when the person clicks; the console never fetches it.
 */
export function UrlElicitationDialog({ interaction, waiting }: { interaction: InteractionDto; waiting: number }) {
  const { respond, answer, dismiss, open } = useAnswer(interaction.id, { action: "cancel" });
  const url = String(interaction.request.url ?? "");
  const parts = splitUrl(url);
  const message = String(interaction.request.message ?? "");
  const openLink = () => {
    if (!parts) return;
    window.open(url, "_blank", "noopener,noreferrer");
    answer({ action: "accept" });
  };
  return (
    <Dialog
      open={open}
      onClose={dismiss}
      title="A server asks you to open a link"
      description={<AskedBy interaction={interaction} waiting={waiting} />}
      footer={
        <>
          <Button data-autofocus onClick={() => answer({ action: "cancel" })} disabled={respond.isPending}>
            Cancel
          </Button>
          <Button onClick={() => answer({ action: "decline" })} disabled={respond.isPending}>
            Decline
          </Button>
          <Button variant="primary" onClick={openLink} disabled={!parts} busy={respond.isPending}>
            Open in a new tab
          </Button>
        </>
      }
    >
      {message && <p className="text-sm whitespace-pre-wrap">{message}</p>}
      <div className="rounded border bg-hover p-2 font-mono text-xs break-all" data-testid="elicitation-url">
        {parts ? (
          <>
            <span className="text-muted">{parts.before}</span>
            <mark className="rounded bg-yellow-200 px-0.5 font-semibold text-black">{parts.host}</mark>
            <span className="text-muted">{parts.after}</span>
          </>
        ) : (
          <span>{url}</span>
        )}
      </div>
      <p className="text-xs text-muted">
        {parts
          ? <>You are about to visit <strong>{parts.host}</strong>. Only continue if you trust this site; the console has not opened it.</>
          : "This is not an http(s) link and cannot be opened."}
      </p>
      {respond.error && <ErrorAlert error={respond.error} title="Could not answer" />}
    </Dialog>
  );
}
