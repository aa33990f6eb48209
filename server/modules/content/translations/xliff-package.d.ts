/** The parts of locize's xliff package the translators' files use (it ships no types). */
declare module 'xliff/xliff2js' {
  export interface XliffUnit {
    source?: unknown;
    target?: unknown;
    note?: unknown;
    additionalAttributes?: Record<string, unknown>;
    groupUnits?: Record<string, XliffUnit>;
  }
  export interface XliffDocument {
    sourceLanguage?: string;
    targetLanguage?: string;
    resources?: Record<string, Record<string, XliffUnit>>;
  }
}
declare module 'xliff/js2xliff' {
  import type { XliffDocument } from 'xliff/xliff2js';
  export default function js2xliff(doc: XliffDocument, options?: { indent?: string }): Promise<string>;
}
