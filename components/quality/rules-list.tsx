import { Badge } from "@/components/ui/badge";
import { LINT_RULES } from "@/lib/domains/quality";

const TONE = { error: "red", warning: "amber", info: "blue" } as const;

/** Every rule the lint applies, with its severity: what a finding's rule name means. */
export function RulesList() {
  return (
    <details className="rounded-lg border px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium">The rules ({LINT_RULES.length})</summary>
      <ul aria-label="Lint rules" className="mt-2 flex flex-col gap-1.5">
        {LINT_RULES.map((rule) => (
          <li key={rule.id} className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5">
            <Badge tone={TONE[rule.severity]}>{rule.severity}</Badge>
            <code className="font-mono text-xs">{rule.id}</code>
            <span className="min-w-0 break-words text-muted">{rule.description}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
