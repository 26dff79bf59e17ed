/** The caption track to start with when captions are on by preference: the interface's language, else the first. */
export function preferredCaption<T extends { language: string }>(captions: readonly T[], interfaceLanguage: string): T | null {
  const primary = (code: string) => code.toLowerCase().split('-')[0];
  return (
    captions.find((c) => c.language.toLowerCase() === interfaceLanguage.toLowerCase()) ??
    captions.find((c) => primary(c.language) === primary(interfaceLanguage)) ??
    captions[0] ??
    null
  );
}
