import { Cell, Row, Table } from "@/components/ui/table";
import type { TokenItem } from "@/lib/domains/quality";

const KIND_LABEL: Record<TokenItem["kind"], string> = { tool: "Tool", prompt: "Prompt", resource: "Resource" };

/** Tools, prompts and resources by token cost, largest first, each with its share of the total. */
export function TokenTable({ items, total }: { items: TokenItem[]; total: number }) {
  if (items.length === 0) return <p className="text-sm text-muted">This snapshot lists no tools, prompts or resources.</p>;
  const sorted = [...items].sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name));
  return (
    <Table columns={["Kind", "Name", { name: "Tokens", align: "right" }, "Share of the total"]} aria-label="Token cost by definition">
      {sorted.map((item) => {
        const share = total > 0 ? (item.tokens / total) * 100 : 0;
        return (
          <Row key={`${item.kind}:${item.name}`}>
            <Cell label="Kind" className="text-muted">
              {KIND_LABEL[item.kind]}
            </Cell>
            <Cell>
              <code className="font-mono text-xs break-all">{item.name}</code>
            </Cell>
            <Cell label="Tokens" className="text-right tabular-nums">
              {item.tokens.toLocaleString("en-US")}
            </Cell>
            <Cell label="Share">
              <div className="inline-flex items-center gap-2 align-middle">
                <div aria-hidden className="h-2 w-24 shrink-0 overflow-hidden rounded bg-hover sm:w-32">
                  <div className="h-full rounded bg-accent" style={{ width: `${Math.min(100, share)}%` }} />
                </div>
                <span className="text-xs text-muted tabular-nums">{share < 0.1 && share > 0 ? "<0.1" : share.toFixed(1)} %</span>
              </div>
            </Cell>
          </Row>
        );
      })}
    </Table>
  );
}
