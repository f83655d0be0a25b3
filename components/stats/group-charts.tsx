"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { historyHref, type Stats, type StatsGroup } from "@/lib/domains/stats";
import { ChartCard, COLORS, failureParts, formatMs, formatRate } from "./chart-card";
import { OneLineTick } from "./one-line-tick";

interface Row extends StatsGroup {
  key: string;
  label: string;
  /** History filtered to this group; null when history cannot filter by it (calls without a user). */
  href: string | null;
}

/** Horizontal bars (calls, each kind of failure stacked) with a linked table: each row opens its calls in history. */
function GroupChart({ title, href, rows, empty }: { title: string; href: string; rows: Row[]; empty: string }) {
  const router = useRouter();
  const data = rows.map((r) => ({ ...r, ok: r.count - r.failures }));
  const open = (row: Row, status?: string) => row.href && router.push(status ? `${row.href}&status=${status}` : row.href);
  return (
    <ChartCard title={title} href={href} className="@container">
      {rows.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted">{empty}</p>
      ) : (
        <>
          <div className="hidden @xs:block">
            <ResponsiveContainer width="100%" height={Math.max(80, rows.length * 26 + 16)}>
              <BarChart data={data} layout="vertical" margin={{ top: 0, right: 8, bottom: 0, left: 0 }}>
                <XAxis type="number" hide allowDecimals={false} />
                <YAxis type="category" dataKey="label" width={96} stroke={COLORS.muted} fontSize={11} tickLine={false} tick={OneLineTick} tickFormatter={(v: string) => (v.length > 14 ? `${v.slice(0, 13)}…` : v)} />
                <Tooltip cursor={{ fill: "var(--hover)" }} contentStyle={{ background: "var(--raised)", border: "1px solid var(--line)", fontSize: 12 }} />
                <Bar dataKey="ok" name="ok and other" stackId="g" fill={COLORS.calls} cursor="pointer" onClick={(bar) => open(bar.payload as Row)} />
                <Bar dataKey="errors" name="errors" stackId="g" fill={COLORS.errors} cursor="pointer" onClick={(bar) => open(bar.payload as Row, "error")} />
                <Bar dataKey="timeouts" name="timeouts" stackId="g" fill={COLORS.timeouts} cursor="pointer" onClick={(bar) => open(bar.payload as Row, "timeout")} />
                <Bar dataKey="interrupted" name="interrupted" stackId="g" fill={COLORS.interrupted} cursor="pointer" onClick={(bar) => open(bar.payload as Row, "interrupted")} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <table className="w-full text-xs">
            <thead className="text-left text-muted">
              <tr>
                <th className="py-1 font-normal">{title.replace(/^(Top |By )/, "").replace(/^./, (c) => c.toUpperCase())}</th>
                <th className="py-1 pl-2 text-right font-normal">calls</th>
                <th className="py-1 pl-2 text-right font-normal" title="Errors, timeouts and interrupted calls">failed</th>
                <th className="hidden py-1 pl-2 text-right font-normal @xs:table-cell">mean</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key} className="border-t">
                  <td className="max-w-0 truncate py-1 pr-2" title={r.label}>
                    {r.href ? (
                      <Link href={r.href} className="text-accent hover:underline">
                        {r.label}
                      </Link>
                    ) : (
                      r.label
                    )}
                  </td>
                  <td className="py-1 pl-2 text-right tabular-nums">{r.count.toLocaleString()}</td>
                  <td className="py-1 pl-2 text-right tabular-nums" title={failureParts(r).join(", ") || undefined}>
                    {formatRate(r.failures, r.count)}
                  </td>
                  <td className="hidden py-1 pl-2 text-right tabular-nums @xs:table-cell">{formatMs(r.meanMs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </ChartCard>
  );
}

/** Top tools, calls by user and by origin for the range. */
export function GroupCharts({ stats }: { stats: Stats }) {
  const range = { serverId: stats.serverId, from: stats.from, to: stats.to };
  const tools: Row[] = stats.topTools.map((t) => ({ ...t, key: `${t.method} ${t.name}`, label: t.name, href: historyHref({ ...range, method: t.method, name: t.name }) }));
  const users: Row[] = stats.byUser.map((u) => ({
    ...u,
    key: u.userId ?? "",
    label: u.userName ?? u.userId ?? "(no user)",
    href: u.userId ? historyHref({ ...range, userId: u.userId }) : null,
  }));
  const origins: Row[] = stats.byOrigin.map((o) => ({ ...o, key: o.origin, label: o.origin, href: historyHref({ ...range, origin: o.origin }) }));
  const href = historyHref(range);
  return (
    <>
      <GroupChart title="Top tools" href={href} rows={tools} empty="No calls in this range." />
      <GroupChart title="By user" href={href} rows={users} empty="No calls in this range." />
      <GroupChart title="By origin" href={href} rows={origins} empty="No calls in this range." />
    </>
  );
}
