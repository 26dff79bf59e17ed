import { type FieldError, validationFailed } from '../../http/errors.js';

/** Parses multipart text fields and reports their errors together with the file errors. */
export function parseFields<T>(
  schema: { safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  input: unknown,
  extra: FieldError[],
): T {
  const result = schema.safeParse(input);
  const errors = result.success ? [] : result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  if (errors.length || extra.length) throw validationFailed([...errors, ...extra]);
  return (result as { data: T }).data;
}

/** "1 h 2 min 5 s", "3 min", "42 s": durations in messages people read. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h ? `${h} h` : '', m ? `${m} min` : '', s || total === 0 ? `${s} s` : ''].filter(Boolean).join(' ');
}
