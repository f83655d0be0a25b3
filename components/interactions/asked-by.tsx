import type { InteractionDto } from "@/lib/domains/interactions";

/** "Server X asks" line shared by the dialogs. */
export function AskedBy({ interaction, waiting }: { interaction: InteractionDto; waiting: number }) {
  return (
    <p className="text-xs text-muted">
      Asked by server <strong className="font-semibold text-fg">{interaction.serverName}</strong>
      {interaction.fromError ? " (in an error answer; re-run the call after opening the link)" : ""}
      {waiting > 0 ? ` · ${waiting} more waiting` : ""}
    </p>
  );
}
