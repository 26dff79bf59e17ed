import type { VideoDetail } from '@reelhouse/contract';
import { ProgressBar } from '@/components/ui/progress-bar';

export function ProcessingStatus({ video }: { video: VideoDetail }) {
  if (video.status === 'failed') {
    return (
      <div role="alert" className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-xl bg-neutral-900 p-6 text-center text-white">
        <p className="text-lg font-semibold">This video could not be processed</p>
        <p className="text-sm text-neutral-300">{video.failureReason ?? 'Unknown error'}</p>
      </div>
    );
  }
  return (
    <div
      className="flex aspect-video w-full flex-col items-center justify-center gap-4 rounded-xl bg-neutral-900 bg-cover bg-center p-6 text-white bg-blend-multiply"
      style={{ backgroundImage: `linear-gradient(rgba(0,0,0,.65), rgba(0,0,0,.65)), url(${JSON.stringify(video.thumbnail.url)})` }}
    >
      <p className="text-lg font-semibold">Processing video…</p>
      <ProgressBar label="Processing progress" percent={video.progress} className="w-2/3 bg-neutral-700" />
      <p className="text-sm text-neutral-300">{video.progress}%</p>
    </div>
  );
}
