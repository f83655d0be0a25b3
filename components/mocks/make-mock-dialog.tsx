"use client";

import { useState, type FormEvent } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import type { MockDto } from "@/lib/domains/mocks";
import { useCreateMock, type MockSelection } from "@/lib/domains/mocks/hooks";
import { nameProblem, parseIgnore, suggestedName, type MockSettingsDraft } from "./mock-form";
import { MockSettingsFields } from "./mock-settings-fields";

interface Props {
  selection: MockSelection;
  /** What the selection is, in words: "the 3 ticked calls", "the calls the filters show". */
  what: string;
  /** The name offered at first (made a path segment). */
  defaultName: string;
  label?: string;
}

/** "Make a mock": a dialog that makes a mock server of a selection of history, then links to it. */
export function MakeMockButton({ selection, what, defaultName, label = "Make a mock" }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <RoleGate min="member">
      <Button size="sm" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Make a mock server" description={`An MCP endpoint that answers with the recorded results of ${what}.`}>
        {open && <MakeMockForm selection={selection} defaultName={defaultName} onClose={() => setOpen(false)} />}
      </Dialog>
    </RoleGate>
  );
}

function MakeMockForm({ selection, defaultName, onClose }: { selection: MockSelection; defaultName: string; onClose: () => void }) {
  const create = useCreateMock();
  const [name, setName] = useState(() => suggestedName(defaultName));
  const [settings, setSettings] = useState<MockSettingsDraft>({ match: "exact", ignore: "", latency: false });
  const [tried, setTried] = useState(false);
  const badName = nameProblem(name);
  const ignore = parseIgnore(settings.ignore);

  if (create.data) return <Made mock={create.data} onClose={onClose} />;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (badName || "problem" in ignore) return;
    create.mutate({ ...selection, name, match: settings.match, ignore: ignore.ignore, latency: settings.latency });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
      <Field label="Name" required hint="It ends the endpoint's path: /mcp/<workspace>/mock/<name>" error={tried ? badName : null}>
        {(props) => <Input {...props} data-autofocus className="font-mono" value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <MockSettingsFields value={settings} onChange={setSettings} problem={tried && "problem" in ignore ? ignore.problem : null} />
      {create.error && <ErrorAlert error={create.error} title="Could not make the mock" />}
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" busy={create.isPending}>
          Make the mock
        </Button>
      </div>
    </form>
  );
}

function Made({ mock, onClose }: { mock: MockDto; onClose: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone="success" title={`Mock “${mock.name}” made`}>
        {mock.calls} recorded call{mock.calls === 1 ? "" : "s"} of {mock.serverName ?? "a deleted server"}
        {mock.skipped ? `; ${mock.skipped} unfinished call${mock.skipped === 1 ? "" : "s"} left out` : ""}. Its endpoint:{" "}
        <code className="font-mono text-xs break-all">{mock.endpoint}</code>
      </Alert>
      <div className="flex justify-end gap-2">
        <Button onClick={onClose}>Close</Button>
        <Link href={`/mocks/${mock.id}`} className={buttonClasses("primary", "md")}>
          Open the mock
        </Link>
      </div>
    </div>
  );
}
