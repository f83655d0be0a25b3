"use client";

import { useId, useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { ROLES, type Role } from "@/lib/core/access";
import type { PolicyRule } from "@/lib/domains/policies";
import { useTestPolicy } from "@/lib/domains/policies/hooks";
import { useCapability, useServers } from "@/lib/domains/servers/hooks";
import { useTokens } from "@/lib/identity/auth/hooks";
import { useMembers } from "@/lib/team/members/hooks";
import { EFFECT_TONE, EFFECT_WORDS, ruleAnchor } from "./rule-words";

type PrincipalKind = "role" | "userId" | "tokenId" | "clientId";
const KINDS: [PrincipalKind, string][] = [
  ["role", "A role"],
  ["userId", "A member"],
  ["tokenId", "An API token"],
  ["clientId", "A gateway host (client id)"],
];

/** "Would this call be allowed?": the engine's answer for a principal, a server's tool and arguments, naming the deciding rule. */
export function PolicyTester({ rules }: { rules: PolicyRule[] }) {
  const servers = useServers();
  const members = useMembers();
  const tokens = useTokens();
  const test = useTestPolicy();
  const toolsListId = useId();
  const [kind, setKind] = useState<PrincipalKind>("role");
  const [who, setWho] = useState("member");
  const [serverId, setServerId] = useState("");
  const [tool, setTool] = useState("");
  const [args, setArgs] = useState("{}");
  const [argsError, setArgsError] = useState<string | null>(null);
  const tools = useCapability(serverId, "tools", Boolean(serverId));

  function submit(event: FormEvent) {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(args || "{}");
    } catch (err) {
      setArgsError(`Not JSON: ${(err as Error).message}`);
      return;
    }
    setArgsError(null);
    const principal = kind === "role" ? { role: who as Role } : { [kind]: who };
    test.mutate({ principal, serverId, tool: tool.trim(), arguments: parsed });
  }

  const result = test.data;
  const decider = result?.ruleId ? rules.find((r) => r.id === result.ruleId) : null;
  return (
    <section aria-labelledby="tester-heading" className="flex flex-col gap-3 rounded-md border p-3">
      <h2 id="tester-heading" className="text-sm font-semibold">
        Would this call be allowed?
      </h2>
      <p className="text-xs text-muted">Asks the same engine every call goes through, with the rules as saved. Nothing is called.</p>
      <form onSubmit={submit} aria-label="Policy tester" className="flex flex-col gap-3">
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <Field label="Caller">
            {(p) => (
              <Select
                {...p}
                value={kind}
                onChange={(e) => {
                  const next = e.target.value as PrincipalKind;
                  setKind(next);
                  setWho(next === "role" ? "member" : "");
                }}
              >
                {KINDS.map(([k, label]) => (
                  <option key={k} value={k}>
                    {label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label={kind === "role" ? "Role" : kind === "userId" ? "Member" : kind === "tokenId" ? "Token" : "Client id"}>
            {(p) =>
              kind === "clientId" ? (
                <Input {...p} value={who} onChange={(e) => setWho(e.target.value)} className="font-mono" />
              ) : (
                <Select {...p} value={who} onChange={(e) => setWho(e.target.value)}>
                  {kind !== "role" && <option value="">Choose…</option>}
                  {kind === "role" && ROLES.map((r) => <option key={r}>{r}</option>)}
                  {kind === "userId" && members.data?.map((m) => <option key={m.id} value={m.id}>{m.name}</option>)}
                  {kind === "tokenId" && tokens.data?.filter((t) => !t.revokedAt).map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
                </Select>
              )
            }
          </Field>
          <Field label="Server" required>
            {(p) => (
              <Select {...p} value={serverId} onChange={(e) => setServerId(e.target.value)}>
                <option value="">Choose a server…</option>
                {servers.data?.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Tool" required hint={tools.isError ? "Could not list this server's tools: type the name." : undefined}>
            {(p) => <Input {...p} list={toolsListId} value={tool} onChange={(e) => setTool(e.target.value)} className="font-mono" />}
          </Field>
          <datalist id={toolsListId}>
            {tools.data?.map((t) => (
              <option key={t.name} value={t.name} />
            ))}
          </datalist>
        </div>
        <Field label="Arguments (JSON)" error={argsError}>
          {(p) => <Textarea {...p} rows={3} value={args} onChange={(e) => setArgs(e.target.value)} spellCheck={false} />}
        </Field>
        <div>
          <Button type="submit" variant="primary" busy={test.isPending} disabled={!serverId || !tool.trim() || !who}>
            Test
          </Button>
        </div>
      </form>
      <ErrorAlert error={test.error} title="Could not test the call" />
      {result && (
        <div role="status" data-testid="policy-decision" data-decision={result.decision} className="flex flex-col gap-1 rounded-md border bg-panel p-3 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={EFFECT_TONE[result.decision]}>{EFFECT_WORDS[result.decision]}</Badge>
            {result.ruleId ? (
              <span>
                decided by{" "}
                <a href={`#${ruleAnchor(result.ruleId)}`} className="text-accent underline" data-testid="deciding-rule">
                  {decider?.name ?? result.ruleId}
                </a>
              </span>
            ) : (
              <span data-testid="deciding-rule">decided by the workspace default</span>
            )}
          </p>
          <p className="text-muted">{result.reason}</p>
        </div>
      )}
    </section>
  );
}
