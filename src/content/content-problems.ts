/** A problem found in the content files, named by file, record, field and line. */
export interface ContentProblem {
  file: string;
  record: string | null;
  field: string | null;
  message: string;
  /** The line of the file the problem is on, from 1, where it can be told. */
  line?: number;
}


export class ContentProblems {
  readonly list: ContentProblem[] = [];
  readonly notes: ContentProblem[] = [];
  add(file: string, record: string | null, field: string | null, message: string, line?: number): void {
    this.list.push({ file, record, field, message, ...(line !== undefined ? { line } : {}) });
  }
  /** What the import changed on its own (bidirectional controls removed), to be reported. */
  note(file: string, record: string | null, field: string | null, message: string, line?: number): void {
    this.notes.push({ file, record, field, message, ...(line !== undefined ? { line } : {}) });
  }
}

export function formatProblem(p: ContentProblem): string {
  const where = [p.record ? `record "${p.record}"` : null, p.field ? `field ${p.field}` : null].filter(Boolean).join(', ');
  return `${p.file}${p.line !== undefined ? `:${p.line}` : ''}${where ? `: ${where}` : ''}: ${p.message}`;
}
