/**
 * What decides a tool for a class, as the tool page and /comparer show it (issue « Catalogue
 * II », points 6 and 7): for each age band of `for_pupils` a sentence with its reasons, then
 * the facts with the page that states each one and the date that page gives, price and
 * education offer last. One function for both pages: a comparison is the tool page's facts
 * side by side.
 */
import { labelTable, type ReasonCode } from '../domain.js';
import { defaultRules } from '../school/for-pupils.js';
import type { ReadModel } from '../read-model/read-model.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import { factRows, PRICING, type FactRow } from './labels.js';
import { dateFr } from './render.js';

/** What an unknown fact reads: no page read says it (never a guess, never a blank). */
export const UNKNOWN_FACT = 'inconnu — aucune page lue ne le dit';

export interface ShownFact extends FactRow {
  /** « page du 1 septembre 2026 », when the page gives a date. */
  pageDateLabel: string | null;
}

export interface PupilReason {
  code: ReasonCode;
  text: string;
  /** The anchor of the rule on the page, for a rule that comes from a public text. */
  rule: { href: string; title: string } | null;
  /** The publisher's page a reason reads its age from (the terms' minimum or consent age). */
  source: string | null;
}

export interface PupilSentence {
  ages: string;
  /** The answer in a few words (« non, les conditions de l’éditeur l’interdisent »). */
  answer: string;
  kind: string;
  why: PupilReason[];
}

/** A rule an answer of this tool gives as a reason, with the public text it comes from. */
export interface RuleNote {
  id: string;
  code: ReasonCode;
  explanation: string;
  source: { title: string; publisher: string; url: string | null; pageDate: string | null } | null;
  reading: boolean;
}

export interface DecidingFacts {
  pupils: PupilSentence[];
  facts: ShownFact[];
  rules: RuleNote[];
}

const ANSWER_SENTENCE: Readonly<Record<string, string>> = labelTable({
  yes: 'oui, vos élèves peuvent l’utiliser eux-mêmes',
  with_consent: 'oui, avec l’accord d’un parent ou de l’établissement',
  teacher_led: 'seulement sous la conduite de l’enseignant',
  no: 'non, les conditions de l’éditeur l’interdisent',
  unknown: 'on ne sait pas encore',
});

const agesOf = (from: number, to: number | null) => (to === null ? `À partir de ${from} ans` : to === from ? `À ${from} ans` : `De ${from} à ${to} ans`);

export const ruleAnchor = (code: string) => `regle-${code.replaceAll('_', '-')}`;

const money = (amount: number, currency: string) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency }).format(amount);

/** The tool's answers for pupils, its facts, price and education offer, and the rules its answers cite. */
export function decidingFacts(model: ReadModel, i: number): DecidingFacts {
  const t = model.tools[i]!;
  const s = t.school;
  const label = (index: VocabularyIndex) => (slug: string) => index.entries[index.position.get(slug) ?? -1]?.label ?? slug;
  const shown = (row: FactRow): ShownFact => ({ ...row, pageDateLabel: row.pageDate ? `page du ${dateFr(row.pageDate)}` : null });
  const price = t.pricing.starting_price;
  const period = price?.period === 'month' ? 'par mois' : price?.period === 'year' ? 'par an' : 'une fois';
  const edu = t.education_program;
  const facts = [
    ...factRows(s, label(model.school.levels), label(model.school.subjects)),
    {
      label: 'Prix',
      value: `${PRICING[t.pricing.model]!} — ${t.pricing.summary}${price ? ` (à partir de ${money(price.amount, price.currency)} ${period})` : ''}`,
      source: t.pricing.url,
      pageDate: null,
    },
    {
      label: 'Offre éducation',
      value: edu ? `${edu.summary} (pour : ${edu.eligibility.join(', ')})` : 'Aucune offre éducation connue',
      source: edu?.url ?? null,
      pageDate: null,
    },
  ].map(shown);

  const rules = defaultRules(model.rules);
  const byCode = new Map((rules?.rules ?? []).map((r) => [r.code, r]));
  const sourceOf = (field: 'min_age' | 'consent_age') => s.sources.find((x) => (x.fields as string[]).includes(field))?.url ?? null;
  const factSource: Partial<Record<ReasonCode, string | null>> = { terms_min_age: sourceOf('min_age'), terms_consent_age: sourceOf('consent_age') };
  const cited = new Set<ReasonCode>();
  const pupils = model.forPupils[i]!.map((band) => ({
    ages: agesOf(band.from, band.to),
    answer: ANSWER_SENTENCE[band.answer] ?? band.answer,
    kind: band.answer,
    why: band.reasons.flatMap((code): PupilReason[] => {
      const rule = byCode.get(code);
      if (!rule) return [];
      if (rule.source) cited.add(code);
      return [{
        code,
        text: rule.explanation.fr,
        rule: rule.source ? { href: `#${ruleAnchor(code)}`, title: rule.source.title } : null,
        source: factSource[code] ?? null,
      }];
    }),
  }));
  const notes = [...cited].map((code): RuleNote => {
    const rule = byCode.get(code)!;
    const src = rule.source!;
    return { id: ruleAnchor(code), code, explanation: rule.explanation.fr, source: { title: src.title, publisher: src.publisher, url: src.url, pageDate: src.page_date ? dateFr(src.page_date) : null }, reading: rule.reading };
  });
  return { pupils, facts, rules: notes };
}
