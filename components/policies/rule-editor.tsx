"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { ROLES, type Role } from "@/lib/core/access";
import { POLICY_EFFECTS, type PolicyEffect, type PolicyRule } from "@/lib/domains/policies";
import { useCreateRule, useUpdateRule, type RuleInput, type RuleUpdate } from "@/lib/domains/policies/hooks";
import { useServers } from "@/lib/domains/servers/hooks";
import { useTokens } from "@/lib/identity/auth/hooks";
import { useMembers } from "@/lib/team/members/hooks";
import { fieldOfError, type RuleField } from "./field-error";
import { CheckList, ConditionRows, parseValue, valueText, type ConditionDraft } from "./rule-editor-parts";
import { EFFECT_WORDS } from "./rule-words";

const list = (text: string) => text.split(/[\n,]+/).map((s) => s.trim()).filter(Boolean);
const some = <T,>(items: T[]) => (items.length ? items : undefined);
const EFFECT_HINT: Record<PolicyEffect, string> = {
  allow: "The call goes through.",
  deny: "The call is refused, naming this rule.",
  approve: "The call waits until a person approves it; no answer in time is a denial.",
};

/** Create or edit a rule. Errors the API finds (a bad pattern, an unknown server) are shown at their field. */
export function RuleEditor({ rule, onDone }: { rule?: PolicyRule; onDone: () => void }) {
  const servers = useServers();
  const members = useMembers();
  const tokens = useTokens();
  const create = useCreateRule();
  const update = useUpdateRule();
  const mutation = rule ? update : create;

  const [name, setName] = useState(rule?.name ?? "");
  const [effect, setEffect] = useState<PolicyEffect>(rule?.effect ?? "deny");
  const [serverIds, setServerIds] = useState(rule?.servers ?? []);
  const [tools, setTools] = useState(rule?.tools?.join(", ") ?? "");
  const [prompts, setPrompts] = useState(rule?.prompts?.join(", ") ?? "");
  const [resources, setResources] = useState(rule?.resources?.join(", ") ?? "");
  const [roles, setRoles] = useState<string[]>(rule?.principals?.roles ?? []);
  const [memberIds, setMemberIds] = useState(rule?.principals?.members ?? []);
  const [tokenIds, setTokenIds] = useState(rule?.principals?.tokens ?? []);
  const [hosts, setHosts] = useState(rule?.principals?.hosts?.join(", ") ?? "");
  const [groups, setGroups] = useState(rule?.principals?.groups?.join(", ") ?? "");
  const [conditions, setConditions] = useState<ConditionDraft[]>((rule?.when ?? []).map((c, i) => ({ key: i, path: c.path, op: c.op, value: valueText(c.value) })));
  const [approverRoles, setApproverRoles] = useState<string[]>(rule?.approvers?.roles ?? []);
  const [timeout, setTimeoutText] = useState(String(rule?.timeoutSeconds ?? 300));
  const [calls, setCalls] = useState(rule?.rateLimit ? String(rule.rateLimit.calls) : "");
  const [perSeconds, setPerSeconds] = useState(rule?.rateLimit ? String(rule.rateLimit.perSeconds) : "60");
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);

  const problem = fieldOfError(mutation.error);
  const errorOf = (field: RuleField) => (problem?.field === field ? problem.message : null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const principals = {
      roles: some(roles as Role[]),
      members: some(memberIds),
      tokens: some(tokenIds),
      hosts: some(list(hosts)),
      groups: some(list(groups)),
    };
    const body: RuleInput = {
      name: name.trim(),
      effect,
      servers: some(serverIds),
      tools: some(list(tools)),
      prompts: some(list(prompts)),
      resources: some(list(resources)),
      principals: Object.values(principals).some(Boolean) ? principals : undefined,
      when: some(conditions.map((c) => (c.op === "exists" ? { path: c.path.trim(), op: c.op } : { path: c.path.trim(), op: c.op, value: parseValue(c.value) }))),
      approvers: effect === "approve" && approverRoles.length ? { roles: approverRoles as Role[] } : undefined,
      timeoutSeconds: effect === "approve" && timeout.trim() ? Number(timeout) : undefined,
      rateLimit: calls.trim() ? { calls: Number(calls), perSeconds: Number(perSeconds) } : undefined,
      enabled,
    };
    // PATCH keeps a field left out: a field cleared in the editor is sent as null, which removes it.
    if (rule) update.mutate({ id: rule.id, ...(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v ?? null])) as RuleUpdate) }, { onSuccess: onDone });
    else create.mutate(body, { onSuccess: onDone });
  }

  const roleOptions = ROLES.map((r) => ({ value: r, label: `${r[0]!.toUpperCase()}${r.slice(1)}s` }));
  return (
    <form onSubmit={submit} aria-label={rule ? "Edit rule" : "New rule"} className="flex flex-col gap-3">
      <Field label="Name" required error={errorOf("name")}>
        {(p) => <Input {...p} data-autofocus value={name} onChange={(e) => setName(e.target.value)} placeholder="No reading outside /tmp" />}
      </Field>
      <fieldset className="flex flex-col gap-1">
        <legend className="text-xs font-medium">Effect</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {POLICY_EFFECTS.map((e) => (
            <label key={e} className="flex items-center gap-1.5">
              <input type="radio" name="rule-effect" value={e} checked={effect === e} onChange={() => setEffect(e)} />
              {EFFECT_WORDS[e][0]!.toUpperCase() + EFFECT_WORDS[e].slice(1)}
            </label>
          ))}
        </div>
        <p className="text-xs text-muted">{EFFECT_HINT[effect]}</p>
        {errorOf("effect") && <p className="text-xs text-red-600 dark:text-red-400">{errorOf("effect")}</p>}
      </fieldset>

      <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border p-3">
        <legend className="px-1 text-xs font-medium">What it covers</legend>
        <CheckList legend="Servers" hint="None picked: every server." options={(servers.data ?? []).map((s) => ({ value: s.id, label: s.name }))} selected={serverIds} onChange={setServerIds} error={errorOf("servers")} empty="No servers in this workspace." />
        <Field label="Tools" hint="Names, comma separated; * matches any run of characters (read_*). Empty: every tool." error={errorOf("tools")}>
          {(p) => <Input {...p} value={tools} onChange={(e) => setTools(e.target.value)} className="font-mono" placeholder="read_file, write_*" />}
        </Field>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <Field label="Prompts" hint="Names or globs; also governs prompts/get." error={errorOf("prompts")}>
            {(p) => <Input {...p} value={prompts} onChange={(e) => setPrompts(e.target.value)} className="font-mono" />}
          </Field>
          <Field label="Resources" hint="URIs or globs; also governs resources/read." error={errorOf("resources")}>
            {(p) => <Input {...p} value={resources} onChange={(e) => setResources(e.target.value)} className="font-mono" placeholder="file:///etc/*" />}
          </Field>
        </div>
      </fieldset>

      <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border p-3">
        <legend className="px-1 text-xs font-medium">Who it applies to</legend>
        <p className="text-xs text-muted">A caller matching any of these; nothing picked: everyone.</p>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <CheckList legend="Roles" options={roleOptions} selected={roles} onChange={setRoles} error={errorOf("roles")} />
          <CheckList legend="Members" options={(members.data ?? []).map((m) => ({ value: m.id, label: m.name, hint: m.email }))} selected={memberIds} onChange={setMemberIds} error={errorOf("members")} />
        </div>
        <CheckList legend="API tokens" hint="Your own tokens; a rule listing other people's tokens keeps them." options={(tokens.data ?? []).filter((t) => !t.revokedAt).map((t) => ({ value: t.id, label: t.name, hint: t.prefix }))} selected={tokenIds} onChange={setTokenIds} error={errorOf("tokens")} empty="You have no API tokens." />
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <Field label="Gateway hosts" hint="OAuth client ids, comma separated." error={errorOf("hosts")}>
            {(p) => <Input {...p} value={hosts} onChange={(e) => setHosts(e.target.value)} className="font-mono" />}
          </Field>
          <Field label="IdP groups" hint="Where single sign-on gives them." error={errorOf("groups")}>
            {(p) => <Input {...p} value={groups} onChange={(e) => setGroups(e.target.value)} />}
          </Field>
        </div>
      </fieldset>

      <ConditionRows rows={conditions} onChange={setConditions} errorOf={(i) => (problem?.field === `when.${i}` ? problem : null)} />

      {effect === "approve" && (
        <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border p-3">
          <legend className="px-1 text-xs font-medium">Approval</legend>
          <CheckList legend="Approvers besides admins and the owner" options={roleOptions.filter((r) => r.value === "viewer" || r.value === "member")} selected={approverRoles} onChange={setApproverRoles} error={errorOf("approvers")} />
          <Field label="Timeout (seconds)" hint="No answer within this long is a denial." error={errorOf("timeoutSeconds")}>
            {(p) => <Input {...p} type="number" min={1} value={timeout} onChange={(e) => setTimeoutText(e.target.value)} className="w-40" />}
          </Field>
        </fieldset>
      )}

      <fieldset className="flex min-w-0 flex-col gap-2 rounded-md border p-3">
        <legend className="px-1 text-xs font-medium">Rate limit</legend>
        <p className="text-xs text-muted">Per caller, on what the rule covers. Empty: no limit. Over it, a call is refused with when to retry.</p>
        <div className="flex flex-wrap items-end gap-2">
          <Field label="Calls" error={errorOf("rateLimit")}>
            {(p) => <Input {...p} type="number" min={1} value={calls} onChange={(e) => setCalls(e.target.value)} className="w-28" />}
          </Field>
          <Field label="Per seconds">
            {(p) => <Input {...p} type="number" min={1} value={perSeconds} onChange={(e) => setPerSeconds(e.target.value)} className="w-28" />}
          </Field>
        </div>
      </fieldset>

      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Enabled
      </label>
      {problem && !problem.field && <ErrorAlert error={mutation.error} title={rule ? "Could not save the rule" : "Could not create the rule"} />}
      <div className="flex justify-end gap-2">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={mutation.isPending} disabled={!name.trim()}>
          {rule ? "Save rule" : "Create rule"}
        </Button>
      </div>
    </form>
  );
}
