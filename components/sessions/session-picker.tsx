"use client";

import { Select } from "@/components/ui/field";
import { useServerSessions } from "@/lib/domains/sessions/hooks";

/** Picks one of a server's sessions (newest first); "" means the current one. */
export function SessionPicker({ serverId, currentId, value, onChange }: { serverId: string; currentId: string | null; value: string; onChange: (id: string) => void }) {
  const sessions = useServerSessions(serverId);
  return (
    <Select aria-label="Session" className="w-auto! max-w-72" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Current session{currentId ? "" : " (none)"}</option>
      {(sessions.data ?? [])
        .filter((s) => s.id !== currentId)
        .map((s) => (
          <option key={s.id} value={s.id}>
            {new Date(s.createdAt).toLocaleString()} · {s.status}
          </option>
        ))}
    </Select>
  );
}
