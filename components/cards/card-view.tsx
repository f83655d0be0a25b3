"use client";

import { Alert } from "@/components/ui/alert";
import { JsonTree } from "@/components/ui/json-tree";
import { Markdown } from "@/components/calls/markdown";
import type { Card, CardEntry } from "@/lib/domains/cards";
import { CardActionButton } from "./card-actions";

/** A UI card: title, subtitle, body (plain or Markdown), label/value fields and actions. */
function CardView({ card }: { card: Card }) {
  return (
    <article aria-label={`Card: ${card.title}`} data-testid="ui-card" className="flex flex-col gap-2 rounded-lg border bg-raised p-3 shadow-sm">
      <header>
        <h3 className="text-sm font-semibold">{card.title}</h3>
        {card.subtitle && <p className="text-xs text-muted">{card.subtitle}</p>}
      </header>
      {card.body &&
        (card.bodyFormat === "markdown" ? <Markdown text={card.body} /> : <p className="text-sm whitespace-pre-wrap">{card.body}</p>)}
      {card.fields && card.fields.length > 0 && (
        <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-0.5 text-xs">
          {card.fields.map((f, i) => (
            <div key={i} className="contents">
              <dt className="text-muted">{f.label}</dt>
              <dd className="font-mono break-all">{f.value === null ? "—" : String(f.value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {card.actions && card.actions.length > 0 && (
        <div role="group" aria-label="Card actions" className="flex flex-wrap items-center gap-2 border-t pt-2">
          {card.actions.map((action, i) => (
            <CardActionButton key={i} action={action} />
          ))}
        </div>
      )}
    </article>
  );
}

/** Every card of a result; an invalid one becomes a notice with its raw value. */
export function CardList({ entries }: { entries: CardEntry[] }) {
  return (
    <div className="flex flex-col gap-2" aria-label="Cards" role="group">
      {entries.map((entry, i) =>
        entry.ok ? (
          <CardView key={i} card={entry.card} />
        ) : (
          <Alert key={i} tone="warning" title="A card in this result does not match the card schema; shown raw">
            <ul className="list-disc pl-5 font-mono text-xs">
              {entry.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
            <div className="mt-1 rounded bg-raised p-1 whitespace-normal">
              <JsonTree value={entry.raw} label="Raw card" />
            </div>
          </Alert>
        ),
      )}
    </div>
  );
}
