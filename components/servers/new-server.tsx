"use client";

import { useState } from "react";
import { Tabs } from "@/components/ui/tabs";
import { AddServerForm } from "./add-server-form";
import { ImportServersForm } from "./import-servers-form";
import { useCan } from "@/lib/identity/auth/hooks";
import { Alert } from "@/components/ui/alert";

type Mode = "manual" | "import";

export function NewServer() {
  const [mode, setMode] = useState<Mode>("manual");
  const can = useCan("addServer");
  if (!can.allowed && can.reason) {
    return (
      <Alert tone="info" title="You can't add servers here">
        {can.reason}
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
