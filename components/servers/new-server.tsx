"use client";

import { useState } from "react";
import { Tabs } from "@/components/ui/tabs";
import { AddServerForm } from "./add-server-form";
import { ImportServersForm } from "./import-servers-form";
import { useCan } from "@/lib/auth/hooks";
import { Alert } from "@/components/ui/alert";

type Mode = "manual" | "import";

export function NewServer() {
  const [mode, setMode] = useState<Mode>("manual");
  const can = useCan("admin");
  if (!can.allowed && can.reason) {
    return (
      <Alert tone="info" title="Only admins add servers">
        {can.reason}. Ask an admin or owner of this workspace to add it.
      </Alert>
    );
  }
  return (
    <Tabs
      label="How to add"
      value={mode}
      onChange={setMode}
      tabs={[
        { id: "manual", label: "Add manually" },
        { id: "import", label: "Import JSON" },
      ]}
    >
      <div className="pt-4">{mode === "manual" ? <AddServerForm /> : <ImportServersForm />}</div>
    </Tabs>
  );
}
