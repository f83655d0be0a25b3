import Link from "next/link";
import { cn } from "@/components/ui/cn";

const CHIP = "inline-flex items-center gap-0.5 rounded-full border border-line bg-hover px-2 py-px font-mono text-[11px] whitespace-nowrap";

/** A call's tags; each one links to history filtered by it unless `linked` is false. */
export function TagChips({ tags, linked = true, className }: { tags: string[]; linked?: boolean; className?: string }) {
  if (!tags.length) return null;
  return (
    <ul aria-label="Tags" className={cn("flex flex-wrap items-center gap-1", className)}>
      {tags.map((tag) => (
        <li key={tag}>
          {linked ? (
            <Link href={`/history?tag=${encodeURIComponent(tag)}`} className={cn(CHIP, "hover:border-accent hover:text-accent")} title={`History tagged ${tag}`}>
              #{tag}
            </Link>
          ) : (
            <span className={CHIP}>#{tag}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

export { CHIP as chipClasses };
