"use client";

import { Badge } from "@/components/ui/badge";
import { JsonTree } from "@/components/ui/json-tree";
import { useCapability } from "@/lib/servers/hooks";
import { checkSchema } from "./json-schema";

/** structuredContent as a JSON tree, validated against the tool's outputSchema when there is one. */
export function StructuredContent({ value, outputSchema }: { value: unknown; outputSchema: unknown }) {
  const schema = outputSchema && typeof outputSchema === "object" ? outputSchema : null;
  const check = schema ? checkSchema(schema, value) : null;
  return (
    <details open className="rounded-md border">
      <summary className="flex cursor-pointer items-center gap-2 border-b bg-panel px-2 py-1 text-xs font-medium">
        Structured content
        {!check ? (
          <Badge>no outputSchema</Badge>
        ) : check.schemaError ? (
          <Badge tone="amber">schema unusable</Badge>
        ) : check.valid ? (
          <Badge tone="green">matches outputSchema</Badge>
        ) : (
          <Badge tone="red">does not match outputSchema</Badge>
        )}
      </summary>
      <div className="flex flex-col gap-2 p-2">
        {check?.schemaError && <p className="text-xs text-amber-700 dark:text-amber-300">The outputSchema could not be compiled: {check.schemaError}</p>}
        {check && !check.valid && check.errors.length > 0 && (
          <ul role="alert" aria-label="Output schema errors" className="list-disc pl-5 text-xs text-red-700 dark:text-red-300">
            {check.errors.map((e, i) => (
              <li key={i}>
                <span className="font-mono">{e.path}</span> {e.message}
              </li>
            ))}
          </ul>
        )}
        <JsonTree value={value} label="Structured content" />
      </div>
    </details>
  );
}

/** Looks the tool's outputSchema up in the server's tool list (for calls opened from history). */
export function StructuredContentFromServer({ serverId, toolName, value }: { serverId: string; toolName: string; value: unknown }) {
  const tools = useCapability(serverId, "tools");
  const tool = tools.data?.find((t) => t.name === toolName);
  return <StructuredContent value={value} outputSchema={tool?.outputSchema} />;
}
