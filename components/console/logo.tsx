export function Logo({ compact }: { compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2 font-semibold tracking-tight">
      <svg aria-hidden viewBox="0 0 24 24" className="size-6 text-accent" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <rect x="3" y="3" width="18" height="18" rx="4" />
        <circle cx="8" cy="9" r="1.5" fill="currentColor" />
        <circle cx="16" cy="15" r="1.5" fill="currentColor" />
        <path d="M9.5 9h5a1.5 1.5 0 0 1 1.5 1.5V13.5M14.5 15h-5A1.5 1.5 0 0 1 8 13.5V10.5" />
      </svg>
      {!compact && <span className="text-base">Switchboard</span>}
    </span>
  );
}
