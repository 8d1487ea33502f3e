/** The part of the `stopword` package the search uses (it ships no type declarations). */
declare module 'stopword' {
  /** French stop words (Snowball's list). */
  export const fra: string[];
  /** English stop words. */
  export const eng: string[];
}
