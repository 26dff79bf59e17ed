/** An accessible 0-100 bar; the track's colours come from the caller so it fits dark and light surfaces. */
export function ProgressBar({ label, percent, className }: { label: string; percent: number; className: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={`h-2 overflow-hidden rounded-full ${className}`}
    >
      <div className="h-full bg-rose-600 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}
