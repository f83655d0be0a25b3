import type { Metadata } from "next";
import { PageHeader } from "@/components/console/page-header";
import { ComparePage } from "@/components/calls/compare-page";

export const metadata: Metadata = { title: "Compare calls" };

export default async function Compare({ searchParams }: { searchParams: Promise<{ a?: string | string[]; b?: string | string[] }> }) {
  const { a, b } = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return (
    <div className="flex flex-col gap-4 p-6">
      <PageHeader title="Compare calls" description="Arguments and results side by side, with what changed." />
      <ComparePage key={`${one(a)}:${one(b)}`} a={one(a)} b={one(b)} />
    </div>
  );
}
