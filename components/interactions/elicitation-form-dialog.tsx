"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/alert";
import { checkFormContent, type InteractionDto } from "@/lib/domains/interactions";
import { AskedBy } from "./asked-by";
import { FormField, initialValues, type Prop } from "./form-fields";
import { useAnswer } from "./use-answer";

/** Form-mode elicitation: fields from the requested schema (with defaults), accept / decline / cancel. */
export function ElicitationFormDialog({ interaction, waiting }: { interaction: InteractionDto; waiting: number }) {
  const { respond, answer, dismiss, open } = useAnswer(interaction.id, { action: "cancel" });
  const schema = (interaction.request.requestedSchema ?? {}) as { properties?: Record<string, Prop>; required?: string[] };
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const [values, setValues] = useState<Record<string, unknown>>(() => initialValues(schema.properties ?? {}));
  const [showErrors, setShowErrors] = useState(false);
  const content = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== ""));
  const errors = checkFormContent(schema, content);
  const errorOf = (name: string) => (showErrors ? (errors.find((e) => e.field === name)?.message ?? null) : null);
  const submit = () => {
    setShowErrors(true);
    if (errors.length === 0) answer({ action: "accept", content: content as Record<string, string> });
  };
  return (
    <Dialog
      open={open}
      onClose={dismiss}
      title="A server asks for information"
      description={<AskedBy interaction={interaction} waiting={waiting} />}
      className="w-[min(40rem,calc(100vw-2rem))]"
      footer={
        <>
          <Button onClick={() => answer({ action: "cancel" })} disabled={respond.isPending}>
            Cancel
          </Button>
          <Button onClick={() => answer({ action: "decline" })} disabled={respond.isPending}>
            Decline
          </Button>
          <Button variant="primary" onClick={submit} busy={respond.isPending}>
            Accept
          </Button>
        </>
      }
    >
      <p className="text-sm whitespace-pre-wrap">{String(interaction.request.message ?? "")}</p>
      <form
        className="flex max-h-[55vh] flex-col gap-3 overflow-auto pr-1"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {properties.map(([name, prop], i) => (
          <FormField
            key={name}
            first={i === 0}
            name={name}
            prop={prop}
            required={required.has(name)}
            value={values[name]}
            error={errorOf(name)}
            onChange={(value) => setValues((old) => ({ ...old, [name]: value }))}
          />
        ))}
      </form>
      {respond.error && <ErrorAlert error={respond.error} title="Could not answer" />}
    </Dialog>
  );
}
