"use client";

import { Field, Input, Select } from "@/components/ui/field";

/** Form values of the "nobody watching" policy (the wait in seconds, as typed). */
export interface UnattendedValues {
  policy: "decline" | "wait";
  waitSeconds: string;
}

/** Edits what happens to a server's elicitation and sampling requests while no browser watches. */
export function UnattendedFields({ values, onChange }: { values: UnattendedValues; onChange: (values: UnattendedValues) => void }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-xs font-medium">When nobody is watching</legend>
      <Field label="Server requests (forms, links, sampling)" hint="Applies while no browser has the console open in this workspace.">
        {(aria) => (
          <Select {...aria} value={values.policy} onChange={(e) => onChange({ ...values, policy: e.target.value as UnattendedValues["policy"] })}>
            <option value="decline">Decline at once</option>
            <option value="wait">Wait for a person</option>
          </Select>
        )}
      </Field>
      {values.policy === "wait" && (
        <Field label="Wait up to (seconds)">
          {(aria) => <Input {...aria} type="number" min={1} max={3600} value={values.waitSeconds} onChange={(e) => onChange({ ...values, waitSeconds: e.target.value })} />}
        </Field>
      )}
    </fieldset>
  );
}
