import { type InstanceSettings, InstanceSettingsPatch } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';

export type SettingsErrors = Partial<Record<keyof InstanceSettings | 'form', string>>;

/**
 * Checks the settings form with the same schema the server applies, and gives one message per field;
 * only what differs from the saved settings is sent.
 */
export function settingsPatch(saved: InstanceSettings, draft: InstanceSettings): { patch: InstanceSettingsPatch | null; errors: SettingsErrors } {
  const changed = Object.fromEntries(
    (Object.keys(draft) as (keyof InstanceSettings)[]).filter((k) => JSON.stringify(draft[k]) !== JSON.stringify(saved[k])).map((k) => [k, draft[k]]),
  );
  if (Object.keys(changed).length === 0) return { patch: null, errors: { form: i18n.t('admin:settings.nothingChanged') } };
  const parsed = InstanceSettingsPatch.safeParse(changed);
  if (parsed.success) return { patch: parsed.data, errors: {} };
  const errors: SettingsErrors = {};
  for (const issue of parsed.error.issues) {
    const key = (issue.path[0] as keyof InstanceSettings | undefined) ?? 'form';
    errors[key] ??= issue.message;
  }
  return { patch: null, errors };
}

/** A number field: empty is null (where null means "no limit"), anything not a number stays as typed so the schema names it. */
export function numberOrNull(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : (t as unknown as number);
}
