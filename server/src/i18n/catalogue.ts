/** A language's words, nested by what they are for; plural forms end in `_one`, `_other`... (i18next's suffixes). */
export interface Catalogue {
  [key: string]: string | Catalogue;
}
