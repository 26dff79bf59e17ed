import type { Caption } from '@reelhouse/contract';
import type { Storage } from '../../storage/storage.js';
import type { CaptionRow } from './captions.repository.js';

export function presentCaption(row: CaptionRow, storage: Pick<Storage, 'url'>): Caption {
  return { _id: row.id, language: row.language, label: row.label, url: storage.url(row.storage_key) };
}
