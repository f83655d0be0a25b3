"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { useCapability, useServers } from "@/lib/domains/servers/hooks";
import type { ServerDto } from "@/lib/domains/servers";
import { MAX_VIRTUAL_TOOLS, servedName, type VirtualServerDto, type VirtualTool } from "@/lib/domains/virtual-servers";
import { useCreateVirtualServer, useDeleteVirtualServer, useUpdateVirtualServer, useVirtualServers } from "@/lib/domains/virtual-servers/hooks";

const origin = () => (typeof window === "undefined" ? "" : window.location.origin);

/** Settings → Gateway: endpoints composed of chosen tools of several servers, renamed and described anew. */
export function VirtualServers() {
  const list = useVirtualServers();
  const remove = useDeleteVirtualServer();
  const [editing, setEditing] = useState<VirtualServerDto | "new" | null>(null);
  const [deleting, setDeleting] = useState<VirtualServerDto | null>(null);
  return (
    <section aria-labelledby="virtual-title" className="flex max-w-4xl flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="virtual-title" className="text-sm font-semibold">
          Virtual servers
        </h2>
        <RoleGate min="admin">
          <Button variant="primary" size="sm" onClick={() => setEditing("new")} disabled={editing !== null}>
            New virtual server
          </Button>
        </RoleGate>
      </div>
      <p className="text-sm text-muted">
        One gateway endpoint offering chosen tools of several servers, each under the name and description you give it. Calls are recorded against the real server and
        tool (“via” the virtual server), and the workspace’s rules apply to them. Tools only: no prompts or resources.
      </p>
      {editing === "new" && <Editor onDone={() => setEditing(null)} />}
      {list.isPending ? (
        <Skeleton className="h-24" />
      ) : list.error ? (
        <ErrorAlert error={list.error} title="Could not load the virtual servers" />
      ) : list.data.length === 0 ? (
        <EmptyState title="No virtual servers yet">Compose one from the tools of the servers in this workspace.</EmptyState>
      ) : (
        <Table columns={["Name", "Endpoint", "Tools", { name: "Actions", hidden: true }]}>
          {list.data.map((v) =>
            editing !== "new" && editing?.id === v.id ? (
              <Row key={v.id}>
                <Cell colSpan={4}>
                  <Editor initial={v} onDone={() => setEditing(null)} />
                </Cell>
              </Row>
            ) : (
              <Row key={v.id} data-testid="virtual-server">
                <Cell className="font-medium">
                  {v.name}
                  {v.shadowedBy && (
                    <Badge tone="amber" className="ml-2" title={`The server “${v.shadowedBy}” is offered at the same path and answers there`}>
                      shadowed
                    </Badge>
                  )}
                </Cell>
                <Cell label="Endpoint">
                  <span className="flex items-center gap-1">
                    <code className="font-mono text-xs break-all">{v.path}</code>
                    <CopyButton text={`${origin()}${v.path}`} label="Copy URL" />
                  </span>
                </Cell>
                <Cell label="Tools" className="text-xs">
                  <ul className="flex flex-col gap-0.5">
                    {v.tools.map((t) => (
                      <li key={servedName(t)} className="font-mono">
                        {servedName(t)}
                        <span className="text-muted"> ← {t.serverName ?? "deleted server"}/{t.tool}</span>
                        {t.problem && (
                          <Badge tone="red" className="ml-1">
                            {t.problem === "server_archived" ? "server archived" : "server deleted"}
                          </Badge>
                        )}
                      </li>
                    ))}
                  </ul>
                </Cell>
                <Cell actions className="text-right">
                  <RoleGate min="admin" hide>
                    <Button size="sm" variant="ghost" aria-label={`Edit ${v.name}`} onClick={() => setEditing(v)} disabled={editing !== null}>
                      Edit
                    </Button>
                    <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Delete ${v.name}`} onClick={() => setDeleting(v)}>
                      Delete
                    </Button>
                  </RoleGate>
                </Cell>
              </Row>
            ),
          )}
        </Table>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        title={`Delete “${deleting?.name ?? ""}”?`}
        description="Hosts connected to its endpoint get 404 from their next request. The servers and their history stay."
        confirmLabel="Delete virtual server"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      />
    </section>
  );
}

function Editor({ initial, onDone }: { initial?: VirtualServerDto; onDone: () => void }) {
  const servers = useServers();
  const create = useCreateVirtualServer();
  const update = useUpdateVirtualServer(initial?.id ?? "");
  const save = initial ? update : create;
  const [name, setName] = useState(initial?.name ?? "");
  const [tools, setTools] = useState<VirtualTool[]>(initial?.tools.map(({ serverId, tool, as, description }) => ({ serverId, tool, as, description })) ?? []);
  const active = servers.data ?? [];

  const change = (i: number, next: VirtualTool) => setTools(tools.map((t, j) => (j === i ? next : t)));
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const clean = tools.map(({ serverId, tool, as, description }) => ({ serverId, tool, ...(as?.trim() ? { as: as.trim() } : {}), ...(description?.trim() ? { description } : {}) }));
    save.mutate({ name: name.trim(), tools: clean }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={onSubmit} aria-label={initial ? `Edit ${initial.name}` : "New virtual server"} className="flex flex-col gap-3 rounded-lg border p-4">
      <Field label="Name" hint="The last segment of its endpoint, /mcp/<workspace>/<name>" required className="w-72">
        {(p) => <Input {...p} value={name} placeholder="support-kit" onChange={(e) => setName(e.target.value)} />}
      </Field>
      <ul aria-label="Tools" className="flex flex-col gap-2">
        {tools.map((tool, i) => (
          <ToolRow key={i} index={i} tool={tool} servers={active} onChange={(next) => change(i, next)} onRemove={() => setTools(tools.filter((_, j) => j !== i))} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={() => setTools([...tools, { serverId: active[0]?.id ?? "", tool: "" }])} disabled={active.length === 0 || tools.length >= MAX_VIRTUAL_TOOLS}>
          Add a tool
        </Button>
        <Button type="submit" variant="primary" size="sm" busy={save.isPending} disabled={!name.trim()}>
          {initial ? "Save" : "Create"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      {active.length === 0 && <Alert tone="info">Add a server to the workspace first.</Alert>}
      <ErrorAlert error={save.error} />
    </form>
  );
}

function ToolRow({ index, tool, servers, onChange, onRemove }: { index: number; tool: VirtualTool; servers: ServerDto[]; onChange: (next: VirtualTool) => void; onRemove: () => void }) {
  const known = servers.some((s) => s.id === tool.serverId);
  const listed = useCapability(tool.serverId, "tools", known);
  const names = [...new Set([...(listed.data ?? []).map((t) => t.name), ...(tool.tool ? [tool.tool] : [])])];
  const original = listed.data?.find((t) => t.name === tool.tool)?.description;
  const n = index + 1;
  return (
    <li className="grid gap-2 rounded-md border p-2 sm:grid-cols-[12rem_12rem_10rem_minmax(0,1fr)_auto]" data-testid="virtual-tool">
      <Field label={`Server ${n}`}>
        {(p) => (
          <Select {...p} value={tool.serverId} onChange={(e) => onChange({ ...tool, serverId: e.target.value, tool: "" })}>
            {!known && <option value={tool.serverId}>(archived or deleted)</option>}
            {servers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label={`Tool ${n}`} error={listed.error ? "Could not list its tools" : null}>
        {(p) => (
          <Select {...p} value={tool.tool} onChange={(e) => onChange({ ...tool, tool: e.target.value })}>
            <option value="">{listed.isLoading ? "Loading…" : "Choose a tool"}</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label={`Served as ${n}`}>
        {(p) => <Input {...p} value={tool.as ?? ""} placeholder={tool.tool || "same name"} onChange={(e) => onChange({ ...tool, as: e.target.value || undefined })} />}
      </Field>
      <Field label={`Description ${n}`}>
        {(p) => <Textarea {...p} rows={1} value={tool.description ?? ""} placeholder={original ?? "the server's own"} onChange={(e) => onChange({ ...tool, description: e.target.value || undefined })} />}
      </Field>
      <Button size="sm" variant="ghost" className="self-end" aria-label={`Remove tool ${n}`} onClick={onRemove}>
        Remove
      </Button>
    </li>
  );
}
