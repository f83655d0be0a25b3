import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/** A header: its name, or hidden (read by screen readers only, e.g. "Actions"), or right-aligned (numbers); a falsy one is left out. */
type Column = string | { name: string; hidden?: boolean; align?: "right" } | false | null | undefined;

/**
 * A list as a table: the header from `columns`, the rows as children
 * (`Row`, `Cell`). On narrow screens `.sb-table` (app/globals.css) stacks each row and hides the
 * header, so a cell whose content does not say what it is gets a `label`.
 */
export function Table({ columns, className, children, ...rest }: { columns: Column[]; children: ReactNode } & Omit<ComponentProps<"table">, "children">) {
  return (
    <table {...rest} className={cn("sb-table w-full border-collapse text-sm", className)}>
      <thead>
        <tr className="border-b text-left text-xs text-muted">
          {columns.map((column, i) => {
            if (!column) return null;
            const { name, hidden, align } = typeof column === "string" ? { name: column, hidden: false, align: undefined } : column;
            return (
              <th key={`${i}-${name}`} className={cn("py-2", !hidden && "pr-3", align === "right" && "text-right", "font-medium")}>
                {hidden ? <span className="sr-only">{name}</span> : name}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A row; `hover` highlights it under the pointer (rows that are links). */
export function Row({ hover, className, ...rest }: { hover?: boolean } & ComponentProps<"tr">) {
  return <tr {...rest} className={cn("border-b", hover && "hover:bg-hover", className)} />;
}

/** A cell; `label` names it on narrow screens; `actions` is the row's last cell of buttons (no right padding). */
export function Cell({ label, actions, className, ...rest }: { label?: string; actions?: boolean } & ComponentProps<"td">) {
  return <td {...rest} data-label={label} className={cn("py-2", !actions && "pr-3", className)} />;
}
