/**
 * The school facts agree with the tool's own text and with each other (issue 43): a
 * description that states a fact (open source, training on what users type, how pupils join,
 * an age in the terms) while its field says otherwise or leaves it null is refused, and so is
 * a level whose pupils are all below the tool's `min_age` when pupils use it themselves.
 *
 * The text is read sentence by sentence with narrow patterns: a sentence is counted only when
 * it names the fact in words a French description uses for it, and a negation in the same
 * sentence (« n'est pas », « jamais », « sans ») turns it around. What the patterns cannot
 * tell stays unchecked: the point is to catch a file whose text and facts were written apart.
 */
import type { LevelEntry, ToolRecord } from '../domain.js';
import type { VocabularyIndex } from '../school/vocabulary.js';
import type { ContentProblems } from './content-problems.js';

const OPEN_SOURCE = /\b(open[ -]source|logiciel libre|licence libre|code source (?:est )?libre)\b/i;
/** What a licence covers when it is not the tool's code: resources, content, data. */
const NOT_CODE = /(?<!\p{L})(?:ressources|contenus?|documents|œuvres|images|textes|données|cartes|exercices|fiches|vidéos|sons)(?!\p{L})/iu;
const TRAINING = /entraîn\w*[^.;:]{0,50}\bmodèles?\b|\bmodèles?\b[^.;:]{0,50}entraîn\w*|(?:servir|servent|utilisée?s?)\s+(?:à|pour)\s+(?:l'|l’)?entraîn\w*/i;
/** Training on what users give (not a model trained on licensed works, nor one the user trains). */
const USER_DATA = /(?<!\p{L})(?:conversations?|utilisateurs?|échanges|requêtes|prompts?|saisies?|publications|vos)(?!\p{L})|\bce que (?:l['’]on|vous|les élèves|l['’]utilisateur)\b/iu;
const USER_TRAINS = /\b(?:entraîner|entraînez|entraînent)\s+(?:un|son|votre|leur|leurs)\s+(?:propres?\s+)?modèles?\b/i;
const NEGATION = /\b(?:ne|pas|jamais|aucune?|sans|non)\b|\bn['’]\w/i;
const CONSENT = /\b(?:parents?|parental|consentement|accord|autorisation|tuteur)\b/i;

/** The clause of `sentence` around the first match of `pattern` (between , ; : or parentheses). */
function clauseOf(sentence: string, pattern: RegExp): string {
  const at = sentence.search(pattern);
  const before = Math.max(...[',', ';', ':', '(', '—'].map((d) => sentence.lastIndexOf(d, at))) + 1;
  const afterCandidates = [',', ';', ':', ')', '—'].map((d) => sentence.indexOf(d, at + 1)).filter((i) => i > at);
  const after = afterCandidates.length > 0 ? Math.min(...afterCandidates) : sentence.length;
  return sentence.slice(before, after);
}
const CLASS_CODE = /\b(?:avec|par|grâce à|via) (?:un|le) code(?: de (?:classe|la classe|session|partage)| PIN| donné| fourni)?\b|\bcode (?:de classe|PIN)\b/i;
const NO_ACCOUNT = /\bsans (?:compte|inscription|création de compte)\b/i;
const PUPILS = /(?<!\p{L})(?:élèves?|apprenants?|participants?|enfants?|joueurs?)(?!\p{L})/iu;
/** An age the terms set: « 13 ans minimum », « au moins 16 ans », « réservé aux plus de 18 ans »… in a sentence about terms or accounts. */
const AGE = /\b(?:(\d{1,2}) ans (?:minimum|au moins|ou plus|et plus|révolus)|(?:au moins|plus de|dès|à partir de|moins de) (\d{1,2}) ans)\b/i;
const TERMS = /\b(?:conditions|CGU|compte|inscri\w*|utilisateurs?|interdit|réservée?s?|autorisée?s?|consentement|parents?)\b/i;

const sentences = (text: string) => text.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== '');

export function checkFactsAgainstText(
  record: ToolRecord,
  levels: VocabularyIndex<LevelEntry>,
  file: string,
  problems: ContentProblems,
  lineOf: (path: ReadonlyArray<string | number>) => number | undefined,
): void {
  const s = record.school;
  const slug = record.slug;
  const at = (field: string) => lineOf(['school', field]);
  const text = sentences(`${record.short_description}\n${record.long_description}`);
  const said = (pattern: RegExp) => text.filter((sentence) => pattern.test(sentence));
  const quote = (sentence: string) => `« ${sentence.trim().slice(0, 120)}${sentence.trim().length > 120 ? '…' : ''} »`;

  for (const sentence of said(OPEN_SOURCE)) {
    const clause = clauseOf(sentence, OPEN_SOURCE);
    if (NOT_CODE.test(clause)) continue;
    const negated = NEGATION.test(clause);
    if (!negated && s.open_source !== true) {
      problems.add(file, slug, 'school.open_source', `is ${JSON.stringify(s.open_source)} but the description says it is open source: ${quote(sentence)}; set true (OSI licence) or reword`, at('open_source'));
      break;
    }
    if (negated && s.open_source === true) {
      problems.add(file, slug, 'school.open_source', `is true but the description says it is not open source: ${quote(sentence)}`, at('open_source'));
      break;
    }
  }

  for (const sentence of said(TRAINING)) {
    const clause = clauseOf(sentence, TRAINING);
    if (!USER_DATA.test(clause) || USER_TRAINS.test(clause)) continue;
    const value = s.trains_on_user_data;
    if (value === null) {
      problems.add(file, slug, 'school.trains_on_user_data', `is null but the description speaks of training models on what users give: ${quote(sentence)}; read the publisher's page and set it (with its source), or reword`, at('trains_on_user_data'));
      break;
    }
    if (!NEGATION.test(sentence) && (value === 'no' || value === 'not_applicable')) {
      problems.add(file, slug, 'school.trains_on_user_data', `is "${value}" but the description says what users give may train models: ${quote(sentence)}`, at('trains_on_user_data'));
      break;
    }
  }

  if (s.pupil_account === 'personal') {
    const joined = said(CLASS_CODE).find((sentence) => PUPILS.test(sentence) && !NEGATION.test(sentence.replace(NO_ACCOUNT, '')))
      ?? said(NO_ACCOUNT).find((sentence) => PUPILS.test(sentence));
    if (joined !== undefined) {
      problems.add(file, slug, 'school.pupil_account', `is "personal" but the description says pupils join without an account of their own: ${quote(joined)}; class_code or none?`, at('pupil_account'));
    }
  }

  for (const sentence of said(AGE)) {
    if (!TERMS.test(sentence)) continue;
    const match = AGE.exec(sentence)!;
    const age = Number(match[1] ?? match[2]);
    // An age with a parent's consent is the consent age; otherwise the terms' minimum.
    const field = CONSENT.test(sentence) ? 'consent_age' : 'min_age';
    const value = s[field];
    if (value === null) {
      problems.add(file, slug, `school.${field}`, `is null but the description states an age in the terms (${age}): ${quote(sentence)}; read the page and set it with its source, or reword`, at(field));
    } else if (age !== s.min_age && age !== s.consent_age) {
      problems.add(file, slug, `school.${field}`, `is ${value} (min_age ${JSON.stringify(s.min_age)}, consent_age ${JSON.stringify(s.consent_age)}) but the description states ${age}: ${quote(sentence)}`, at(field));
    }
    break;
  }

  // Pupils use it themselves at a level all of whose pupils are under the terms' minimum age.
  if (s.min_age !== null && s.pupil_use !== null && s.pupil_use !== 'teacher_only') {
    for (const level of s.levels ?? []) {
      const entry = levels.entries[levels.position.get(level) ?? -1];
      if (entry && entry.ages.max < s.min_age) {
        problems.add(file, slug, 'school.levels', `lists ${level} (pupils of ${entry.ages.min}–${entry.ages.max}) while the terms set min_age ${s.min_age} and pupils use it (${s.pupil_use}): drop the level, or make the use teacher_only`, lineOf(['school', 'levels']));
      }
    }
  }
}
