/**
 * The rules of "Can my pupils use it?" (content/rules/*.yaml, one file per country): each
 * file explains every reason code the engine gives (school/for-pupils.ts) exactly once, with
 * the answer the engine gives for it, and exactly one file is the default.
 */
import path from 'node:path';
import { REASON_CODES, type PupilAnswer, type PupilRuleSet, type ReasonCode } from '../domain.js';
import { RulesFile } from './content-schema.js';
import type { ContentProblems } from './content-problems.js';
import { checkSchema, readYaml } from './yaml-file.js';

/** What the engine answers for each code; null for a reason that only explains. */
const ANSWER_OF: Record<ReasonCode, PupilAnswer | null> = {
  pupil_use_unknown: 'unknown', teacher_only: 'teacher_led', min_age_unknown: 'unknown', terms_min_age: 'no', terms_allow: 'yes',
  generative_ai_unknown: 'unknown', framework_genai_autonomy: 'teacher_led', framework_no_pupil_account: 'teacher_led',
  framework_genai_feature: null, terms_consent_age: 'with_consent', digital_consent_age: 'with_consent', consent_age_unknown: 'unknown',
  school_account: null,
};

export async function loadRules(files: readonly string[], rel: (f: string) => string, problems: ContentProblems): Promise<PupilRuleSet[]> {
  const sets: PupilRuleSet[] = [];
  for (const file of files) {
    const shown = rel(file);
    const country = path.basename(file, '.yaml');
    const yaml = await readYaml(file, shown, problems, country);
    if (yaml === undefined) continue;
    const set = checkSchema<PupilRuleSet>(RulesFile, yaml, shown, country, problems);
    if (set === undefined) continue;
    const before = problems.list.length;
    if (set.country !== country) problems.add(shown, country, 'country', `must be the file's name (${country}), got "${set.country}"`, yaml.lineOf(['country']));
    const seen = new Set<string>();
    set.rules.forEach((rule, i) => {
      if (seen.has(rule.code)) problems.add(shown, country, `rules[${i}].code`, `"${rule.code}" is explained twice`, yaml.lineOf(['rules', i, 'code']));
      seen.add(rule.code);
      if (rule.answer !== ANSWER_OF[rule.code]) {
        problems.add(shown, country, `rules[${i}].answer`, `must be ${JSON.stringify(ANSWER_OF[rule.code])}: it is what the engine answers for ${rule.code}`, yaml.lineOf(['rules', i, 'answer']));
      }
      if (rule.source?.checked_at && rule.source.url === null) {
        problems.add(shown, country, `rules[${i}].source.checked_at`, 'a page read has an address: give source.url, or checked_at null', yaml.lineOf(['rules', i, 'source', 'checked_at']));
      }
    });
    for (const code of REASON_CODES) if (!seen.has(code)) problems.add(shown, country, 'rules', `does not explain "${code}", a code the engine gives`, yaml.lineOf(['rules']));
    const { genai_autonomy: genai, digital_consent: consent, majority } = set.ages;
    if ((genai !== null && genai > majority) || (consent !== null && consent > majority)) problems.add(shown, country, 'ages', 'no age may be above majority', yaml.lineOf(['ages']));
    if (problems.list.length === before) sets.push(set);
  }
  const defaults = sets.filter((s) => s.default);
  if (sets.length > 0 && defaults.length !== 1) problems.add('content/rules', null, 'default', `exactly one rules file is the default (found ${defaults.length})`);
  return sets;
}
