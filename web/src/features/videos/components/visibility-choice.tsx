import type { Visibility } from '@reelhouse/contract';
import { TextField } from '@/components/ui/primitives';
import { ChoiceGroup } from './choice-group';

const HINTS: Record<Visibility, string> = {
  public: 'Everyone can find it; your subscribers are told.',
  unlisted: 'Only people with the link can watch it.',
  private: 'Only you can watch it.',
};

/**
 * Who sees the new video from the start, and for a private one an optional time at which it turns
 * public by itself. The time is picked in the viewer's own time zone; the server gets it in UTC.
 */
export function VisibilityChoice({
  visibility,
  onVisibility,
  schedule,
  onSchedule,
  scheduleError,
  disabled,
}: {
  visibility: Visibility;
  onVisibility: (v: Visibility) => void;
  schedule: string;
  onSchedule: (value: string) => void;
  scheduleError?: string;
  disabled?: boolean;
}) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <ChoiceGroup
        legend="Visibility"
        name="visibility"
        value={visibility}
        disabled={disabled}
        onChange={onVisibility}
        options={[
          { value: 'public', label: 'Public', hint: HINTS.public },
          { value: 'unlisted', label: 'Unlisted', hint: HINTS.unlisted },
          { value: 'private', label: 'Private', hint: HINTS.private },
        ]}
      />
      {visibility === 'private' && (
        <TextField
          label="Schedule (optional)"
          type="datetime-local"
          value={schedule}
          disabled={disabled}
          onChange={(e) => onSchedule(e.target.value)}
          error={scheduleError}
          hint={`${schedule ? 'Private until then, public from then on' : 'Leave empty to keep it private'}. Your time zone: ${zone}.`}
        />
      )}
    </div>
  );
}
