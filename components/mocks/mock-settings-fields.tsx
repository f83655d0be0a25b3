"use client";

import { Field, Select, Textarea } from "@/components/ui/field";
import type { MockMatch } from "@/lib/domains/mocks";
import type { MockSettingsDraft } from "./mock-form";

/** How a mock matches calls to its recordings: exact or closest, JSON pointers to ignore, recorded latency. */
export function MockSettingsFields({ value, onChange, problem }: { value: MockSettingsDraft; onChange: (next: MockSettingsDraft) => void; problem?: string | null }) {
  return (
    <>
      <Field label="When a call was not recorded" hint="Matching is by tool (or prompt, resource) and arguments.">
        {(props) => (
          <Select {...props} value={value.match} onChange={(e) => onChange({ ...value, match: e.target.value as MockMatch })}>
            <option value="exact">exact: answer a JSON-RPC error naming what was not recorded</option>
            <option value="closest">closest: answer the closest recorded call</option>
          </Select>
        )}
      </Field>
      <Field label="Arguments to ignore" hint="JSON pointers into the arguments, one a line (e.g. /timestamp)" error={problem}>
        {(props) => <Textarea {...props} rows={2} placeholder="/timestamp" value={value.ignore} onChange={(e) => onChange({ ...value, ignore: e.target.value })} />}
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={value.latency} onChange={(e) => onChange({ ...value, latency: e.target.checked })} />
        Answer after each call&apos;s recorded duration (latency)
      </label>
    </>
  );
}
