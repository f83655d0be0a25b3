"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useCreateServer } from "@/lib/domains/servers/hooks";
import { EMPTY_OAUTH, OAuthFields, oauthPayload, type OAuthFieldValues } from "@/components/oauth/oauth-fields";
import { HeadersEditor, headersFromRows, type HeaderRow } from "./headers-editor";
import { issuesToErrors, ServerFields, type ServerFieldErrors, type ServerFieldValues } from "./server-fields";

export function AddServerForm() {
  const router = useRouter();
  const create = useCreateServer();
  const [values, setValues] = useState<ServerFieldValues>({ name: "", url: "", transport: "auto", protocolEra: "auto", timeoutMs: "60000", maxTotalTimeoutMs: "" });
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [errors, setErrors] = useState<ServerFieldErrors>({});
  const [oauth, setOAuth] = useState<OAuthFieldValues>(EMPTY_OAUTH);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // zod stays out of the page's first load: only submitting needs it.
    const { CreateServerSchema } = await import("@/lib/domains/servers/schemas");
    const parsed = CreateServerSchema.safeParse({
      ...values,
      timeoutMs: values.timeoutMs === "" ? undefined : Number(values.timeoutMs),
      maxTotalTimeoutMs: values.maxTotalTimeoutMs === "" ? undefined : Number(values.maxTotalTimeoutMs),
      headers: headersFromRows(headers),
      authMode: oauth.authMode,
      ...oauthPayload(oauth),
    });
    if (!parsed.success) {
      setErrors(issuesToErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, { onSuccess: (server) => router.push(`/servers/${server.id}`) });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-xl flex-col gap-4" aria-label="Add server">
      <ServerFields values={values} errors={errors} onChange={setValues} />
      <HeadersEditor rows={headers} onChange={setHeaders} />
      <OAuthFields values={oauth} onChange={setOAuth} />
      {errors.headers && <p className="text-xs text-red-600 dark:text-red-400">{errors.headers}</p>}
      <ErrorAlert error={create.error} title="Could not add the server" />
      <div>
        <Button type="submit" variant="primary" busy={create.isPending}>
          Add server
        </Button>
      </div>
    </form>
  );
}
