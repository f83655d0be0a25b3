"use client";

import { buttonClasses } from "@/components/ui/button";
import { apiUrl } from "@/lib/core/api-client";
import { useWorkspaceId } from "@/lib/team/workspaces/hooks";

/** Downloads the workspace's servers as an `mcpServers` file (header values as placeholders). */
export function ExportServersLink() {
  return (
    <a
      href={apiUrl("/servers/export", { workspace: useWorkspaceId() })}
      download
      className={buttonClasses("secondary", "md")}
      title="An mcpServers file of this workspace's servers; header values become ${VAR} placeholders"
    >
      Export mcpServers
    </a>
  );
}
