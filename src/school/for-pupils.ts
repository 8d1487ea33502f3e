/**
 * "Can my pupils use it?" (API.md, `for_pupils`): the answer for each age, from a tool's
 * school facts and a country's rules (content/rules/). The engine knows what each reason
 * code decides; the rules file gives the ages (autonomous use of generative AI, a minor's own
 * consent, majority) and explains each code with its source, so another country is another
 * file. A fact a rule needs that is null gives `unknown` for the ages that rule decides,
 * never a guess.
 *
 * The order, at one age:
 *   1. who uses it: pupil_use unknown → unknown; teacher_only → teacher_led;
 *   2. the terms' minimum: min_age unknown → unknown; under it → no;
 *   3. the framework: under its age for autonomous use of generative AI, a tool whose
 *      generative AI is unknown → unknown, whose product is generative AI → teacher_led;
 *      a generative-AI product that needs a pupil's own account → teacher_led until majority
 *      (no personal account may be required of pupils on such a service);
 *   4. consent: under the terms' consent age → with_consent; with a personal account, under
 *      the age of digital consent → with_consent, and when the terms' consent age is unknown,
 *      unknown until majority; accounts the school makes are its own consent;
 *   5. otherwise yes.
 */
import type { ForPupilsBand, PupilAnswer, PupilRuleSet, ReasonCode, SchoolFacts } from '../domain.js';

/** The youngest age an answer is given for (API.md: bands from 3). */
export const YOUNGEST = 3;

interface Answer {
  answer: PupilAnswer;
  reasons: ReasonCode[];
}

export function answerAt(s: SchoolFacts, rules: PupilRuleSet, age: number): Answer {
  const { genai_autonomy: genaiAge, digital_consent: consentAge, majority } = rules.ages;
  if (s.pupil_use === null) return { answer: 'unknown', reasons: ['pupil_use_unknown'] };
  if (s.pupil_use === 'teacher_only') return { answer: 'teacher_led', reasons: ['teacher_only'] };
  if (s.min_age === null) return { answer: 'unknown', reasons: ['min_age_unknown'] };
  if (age < s.min_age) return { answer: 'no', reasons: ['terms_min_age'] };
  const underFramework = genaiAge !== null && age < genaiAge;
  if (underFramework && s.generative_ai === null) return { answer: 'unknown', reasons: ['generative_ai_unknown'] };
  if (underFramework && s.generative_ai === 'core') return { answer: 'teacher_led', reasons: ['framework_genai_autonomy'] };
  if (genaiAge !== null && s.generative_ai === 'core' && s.pupil_account === 'personal' && age < majority) {
    return { answer: 'teacher_led', reasons: ['framework_no_pupil_account'] };
  }
  const notes: ReasonCode[] = underFramework && s.generative_ai === 'feature' ? ['framework_genai_feature'] : [];
  if (s.consent_age !== null && age < s.consent_age) return { answer: 'with_consent', reasons: ['terms_consent_age', ...notes] };
  if (s.pupil_account === 'personal' || s.pupil_account === null) {
    if (consentAge !== null && age < consentAge && s.pupil_account === 'personal') return { answer: 'with_consent', reasons: ['digital_consent_age', ...notes] };
    if (s.consent_age === null && age < majority) return { answer: 'unknown', reasons: ['consent_age_unknown', ...notes] };
  }
  const school: ReasonCode[] = s.pupil_account === 'teacher_created' || s.pupil_account === 'school_sso' ? ['school_account'] : [];
  return { answer: 'yes', reasons: ['terms_allow', ...school, ...notes] };
}

/**
 * The facts with each unknown one read in the tool's favour (used by anyone, no minimum age,
 * no generative AI, no account, no consent asked): what a tool whose answer is `unknown` could
 * at best answer once they are read. A generative-AI product is `teacher_led` before the
 * framework's age whatever its terms say, so it is no candidate for pupils on their own
 * (read-model/school-filters.ts, the `unknown` kept by the age filter).
 */
export function bestCase(s: SchoolFacts): SchoolFacts {
  return {
    ...s,
    pupil_use: s.pupil_use ?? 'independent',
    pupil_account: s.pupil_account ?? 'none',
    min_age: s.min_age ?? 0,
    consent_age: s.consent_age ?? 0,
    generative_ai: s.generative_ai ?? 'none',
  };
}

/**
 * The answers from YOUNGEST up, as contiguous bands: cut at every age a rule or a fact
 * names, then neighbours with the same answer and reasons merged. The last band is open.
 */
export function forPupils(s: SchoolFacts, rules: PupilRuleSet): ForPupilsBand[] {
  const cuts = new Set<number>([YOUNGEST]);
  for (const age of [s.min_age, s.consent_age, rules.ages.genai_autonomy, rules.ages.digital_consent, rules.ages.majority]) {
    if (age !== null && age > YOUNGEST) cuts.add(age);
  }
  const starts = [...cuts].sort((a, b) => a - b);
  const bands: ForPupilsBand[] = [];
  starts.forEach((from, k) => {
    const { answer, reasons } = answerAt(s, rules, from);
    const last = bands[bands.length - 1];
    if (last && last.answer === answer && last.reasons.join() === reasons.join()) {
      last.to = k + 1 < starts.length ? starts[k + 1]! - 1 : null;
      return;
    }
    bands.push({ from, to: k + 1 < starts.length ? starts[k + 1]! - 1 : null, answer, reasons });
  });
  return bands;
}

/** The band an age falls in. */
export function bandAt(bands: readonly ForPupilsBand[], age: number): ForPupilsBand {
  for (const band of bands) if (age >= band.from && (band.to === null || age <= band.to)) return band;
  return bands[0]!;
}

/** The rules every answer is computed with: the default set. */
export function defaultRules(sets: readonly PupilRuleSet[]): PupilRuleSet | null {
  return sets.find((r) => r.default) ?? sets[0] ?? null;
}
