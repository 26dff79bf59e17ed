import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatViews, timeAgo } from '@/lib/format';

export const DESCRIPTION_PREVIEW_CHARS = 100;

export interface DescriptionBoxProps {
  description: string;
  views: number;
  createdAt: string;
  /** Renders the shown text (links for its timestamps, say); plain text without it. */
  renderText?: (text: string) => ReactNode;
}

export function DescriptionBox({ description, views, createdAt, renderText }: DescriptionBoxProps) {
  const { t } = useTranslation('videos');
  const [expanded, setExpanded] = useState(false);
  const long = description.length > DESCRIPTION_PREVIEW_CHARS;
  const text = expanded || !long ? description : `${description.slice(0, DESCRIPTION_PREVIEW_CHARS)}…`;
  return (
    <div className="mt-4 rounded-xl bg-neutral-100 p-3 text-sm dark:bg-neutral-800/70">
      <p className="font-semibold">
        <span data-testid="view-count">{formatViews(views)}</span> <span aria-hidden="true">•</span> {timeAgo(createdAt)}
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words" data-testid="description">
        {renderText ? renderText(text) : text}
      </p>
      {long && (
        <button type="button" onClick={() => setExpanded((x) => !x)} aria-expanded={expanded} className="mt-1 font-semibold hover:underline">
          {expanded ? t('description.showLess') : t('description.showMore')}
        </button>
      )}
    </div>
  );
}
