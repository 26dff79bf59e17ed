// Drawn here because vidstack's icon entry needs the separate `media-icons` package; these match
// the 32x32 outline style of the default layout's icons.
export function TheaterIcon({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" fill="none" aria-hidden="true" focusable="false">
      <rect x="4" y="9" width="24" height="14" rx="2" stroke="currentColor" strokeWidth="2.5" />
    </svg>
  );
}

export function TheaterExitIcon({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" fill="none" aria-hidden="true" focusable="false">
      <rect x="7" y="10" width="18" height="12" rx="2" stroke="currentColor" strokeWidth="2.5" />
    </svg>
  );
}
