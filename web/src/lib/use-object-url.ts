import { useEffect, useState } from 'react';

/** A blob: URL for a chosen file, revoked when the file changes or the component unmounts, so a
 *  preview never keeps an old file in memory. */
export function useObjectUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
