import { asRecord } from "./safe-content";
import { formatTime } from "./format";

/** A block's annotations (audience, priority, lastModified) as quiet text in its header. */
export function Annotations({ value }: { value: unknown }) {
  const a = asRecord(value);
  if (!a) return null;
  const parts: string[] = [];
  if (Array.isArray(a.audience)) parts.push(`for ${a.audience.filter((x) => typeof x === "string").join(", ") || "—"}`);
  if (typeof a.priority === "number") parts.push(`priority ${a.priority}`);
  if (typeof a.lastModified === "string") parts.push(`modified ${formatTime(a.lastModified, true)}`);
  if (parts.length === 0) return null;
  return (
    <span aria-label="Annotations" data-testid="annotations" className="ml-auto truncate text-[11px] text-muted" title={JSON.stringify(a)}>
      {parts.join(" · ")}
    </span>
  );
}
