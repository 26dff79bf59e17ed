import { useEffect, useState } from 'react';

/** A blob: URL for a chosen file, revoked when the file changes or the component unmounts, so a
 *  preview never keeps an old file in memory. */
export function useObjectUrl(file: Blob | null): string | null {
  const [made, setMade] = useState<{ file: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    // The URL is a browser resource whose life this effect owns (made here, revoked in its cleanup); state only shows it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setMade({ file, url });
    return () => URL.revokeObjectURL(url);
  }, [file]);
  // Until the effect has made one for this file, there is none (never the previous file's, revoked by then).
  return made?.file === file ? made.url : null;
}
