"use client";

import { useState } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorAlert } from "@/components/ui/alert";
import { RoleGate } from "@/components/ui/role-gate";
import type { MockDto } from "@/lib/domains/mocks";
import { mockExportUrl, useDeleteMock } from "@/lib/domains/mocks/hooks";
import { useWorkspaceId } from "@/lib/team/workspaces/hooks";

/** A mock's file as a download: what `switchboard mock serve` serves. */
export function ExportMockLink({ mock }: { mock: Pick<MockDto, "id" | "name"> }) {
  // A plain link: the browser saves the attachment.
  return (
    <a href={mockExportUrl(mock.id, useWorkspaceId())} download={`${mock.name}.mock.json`} className={buttonClasses("secondary", "sm")} aria-label={`Export ${mock.name}`}>
      Export
    </a>
  );
}

/** Delete, after a confirmation; `onDeleted` runs once it is gone. */
export function DeleteMockButton({ mock, onDeleted }: { mock: Pick<MockDto, "id" | "name">; onDeleted?: () => void }) {
  const remove = useDeleteMock();
  const [open, setOpen] = useState(false);
  return (
    <RoleGate min="member">
      <Button size="sm" variant="ghost" onClick={() => setOpen(true)} aria-label={`Delete ${mock.name}`}>
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete the mock “${mock.name}”?`}
        description="Its endpoint stops answering (404). Exported files keep working with the CLI; history keeps the calls it answered."
        confirmLabel="Delete mock"
        busy={remove.isPending}
        error={remove.error ? <ErrorAlert error={remove.error} /> : undefined}
        onConfirm={() =>
          remove.mutate(mock.id, {
            onSuccess: () => {
              setOpen(false);
              onDeleted?.();
            },
          })
        }
      />
    </RoleGate>
  );
}
