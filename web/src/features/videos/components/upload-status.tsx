import { ProgressBar } from '@/components/ui/progress-bar';
import { formatBytes, formatDuration } from '@/lib/format';
import type { ResumableProgress } from '@/lib/resumable-upload';

/** How a resumable upload is going: bytes, speed, time left, and whether it is waiting on the network. */
export function UploadStatus({ fileName, progress, publishing }: { fileName: string; progress: ResumableProgress; publishing: boolean }) {
  const { loaded, total, percent, bytesPerSecond, secondsLeft, resumedFrom, retrying } = progress;
  const state = publishing ? 'Uploaded, publishing' : retrying ? 'Connection lost, retrying' : 'Uploading';
  return (
    <div className="flex flex-col gap-2 rounded-xl bg-neutral-100 p-4 dark:bg-neutral-900">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="min-w-0 truncate font-medium" data-testid="upload-state">
          {state} {fileName}
        </span>
        <span className="shrink-0 tabular-nums text-neutral-600 dark:text-neutral-400" data-testid="upload-progress">
          {formatBytes(loaded)} / {formatBytes(total)} ({percent}%)
        </span>
      </div>
      <ProgressBar label="Upload progress" percent={percent} className="bg-neutral-200 dark:bg-neutral-800" />
      <div className="flex flex-wrap justify-between gap-x-3 text-xs tabular-nums text-neutral-600 dark:text-neutral-400">
        <span data-testid="upload-speed">
          {publishing
            ? 'Every byte is on the server'
            : bytesPerSecond
              ? `${formatBytes(bytesPerSecond)}/s`
              : retrying
                ? 'Waiting for the network'
                : 'Measuring speed…'}
        </span>
        {!publishing && secondsLeft !== null && <span data-testid="upload-time-left">{formatDuration(secondsLeft)} left</span>}
        {resumedFrom !== null && resumedFrom > 0 && <span data-testid="upload-resumed">Resumed at {formatBytes(resumedFrom)}, nothing sent twice</span>}
      </div>
      <p className="text-xs text-neutral-500 dark:text-neutral-400">You can keep editing the title, description and thumbnail while the file uploads.</p>
    </div>
  );
}
