/** The licence of the data (content/LICENSE: CC BY 4.0), served whole to agents (mcp/directory-server.ts). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config.js';

const SHORT = 'The data is licensed under Creative Commons Attribution 4.0 International (CC BY 4.0): https://creativecommons.org/licenses/by/4.0/legalcode';

/** The LICENSE of the content folder, else the bundled one, else a one-line notice naming the licence. Read once, at start-up. */
export function dataLicenseText(contentDir: string): string {
  for (const file of [path.join(contentDir, 'LICENSE'), path.join(PROJECT_ROOT, 'content', 'LICENSE')]) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // next candidate
    }
  }
  return SHORT;
}
