/** What every route module receives from the app. */
import type { Config } from '../config.js';
import type { LiveDirectory } from '../live-directory.js';
import type { License } from './representations.js';

export interface RouteContext {
  config: Config;
  directory: LiveDirectory;
  license: License;
  /** `<https://creativecommons.org/licenses/by/4.0/>; rel="license"` */
  licenseLink: string;
}

export const CC_BY = { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' } as const;
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 80;
