/** How the school facts and the other values read in the catalogue, in French. */
import { labelTable, languageLabel, PLATFORM_LABELS, type SchoolFacts } from '../domain.js';

export const PRICING: Record<string, string> = labelTable({ free: 'Gratuit', freemium: 'Gratuit avec options payantes', paid: 'Payant', enterprise: 'Sur devis (établissements)' });
export const PUPIL_USE: Record<string, string> = labelTable({
  independent: 'Les élèves l’utilisent seuls',
  supervised: 'Les élèves participent à ce que l’enseignant anime',
  teacher_only: 'Réservé à l’enseignant',
});
export const PUPIL_ACCOUNT: Record<string, string> = labelTable({
  none: 'Aucun compte',
  class_code: 'Un code ou un lien donné par l’enseignant',
  teacher_created: 'Des comptes créés par l’enseignant',
  school_sso: 'Le compte de l’établissement (ENT, GAR, ÉduConnect…)',
  personal: 'Un compte personnel chez l’éditeur',
});
export const GENERATIVE_AI: Record<string, string> = labelTable({ none: 'Non', feature: 'Dans certaines fonctions', core: 'Oui, c’est le cœur de l’outil' });
export const TRAINS: Record<string, string> = labelTable({ no: 'Non', opt_out: 'Oui, sauf si l’utilisateur refuse', yes: 'Oui', not_applicable: 'Sans objet (pas d’IA générative)' });
export const DATA_LOCATION: Record<string, string> = labelTable({ device: 'Sur l’appareil (rien n’en sort)', france: 'En France', eu: 'Dans l’Union européenne', outside_eu: 'Hors de l’Union européenne' });
export const ACCESS: Record<string, string> = labelTable({ gar: 'GAR', ent: 'ENT', apps_education: 'apps.education.fr', educonnect: 'ÉduConnect' });
export const PLATFORMS: Record<string, string> = PLATFORM_LABELS;
export const languageName = languageLabel;
const yesNo = (v: boolean | null) => (v === null ? null : v ? 'Oui' : 'Non');

export interface FactRow {
  label: string;
  value: string | null;
  /** The page that states it, for the facts read on a publisher's or an institution's page. */
  source: string | null;
  /** The date that page gives for itself (ISO), when it gives one. */
  pageDate: string | null;
}

/** The school facts as table rows, the same on the tool page and in /comparer; a null value is unknown. */
export function factRows(s: SchoolFacts, levelLabel: (slug: string) => string, subjectLabel: (slug: string) => string): FactRow[] {
  const sourceOf = (field: string) => s.sources.find((x) => (x.fields as string[]).includes(field)) ?? null;
  const row = (label: string, value: string | null, field?: string): FactRow => {
    const source = value !== null && field ? sourceOf(field) : null;
    return { label, value, source: source?.url ?? null, pageDate: source?.page_date ?? null };
  };
  return [
    row('Niveaux', s.levels?.map(levelLabel).join(', ') ?? null),
    row('Disciplines', s.subjects?.map(subjectLabel).join(', ') ?? null),
    row('Usage par les élèves', s.pupil_use ? PUPIL_USE[s.pupil_use]! : null),
    row('Ce qu’il faut à un élève', s.pupil_account ? PUPIL_ACCOUNT[s.pupil_account]! : s.pupil_use === 'teacher_only' ? 'Rien : les élèves ne l’utilisent pas' : null),
    row('Âge minimal selon l’éditeur', s.min_age === null ? null : s.min_age === 0 ? 'Aucun âge fixé' : `${s.min_age} ans`, 'min_age'),
    row('Accord d’un parent demandé', s.consent_age === null ? null : s.consent_age <= (s.min_age ?? 0) ? 'Non, les conditions n’en demandent pas' : `Avant ${s.consent_age} ans`, 'consent_age'),
    row('IA générative', s.generative_ai ? GENERATIVE_AI[s.generative_ai]! : null),
    row('Entraîne ses modèles sur les données des utilisateurs', s.trains_on_user_data ? TRAINS[s.trains_on_user_data]! : null, 'trains_on_user_data'),
    row('Où sont les données', s.data_location ? DATA_LOCATION[s.data_location]! : null, 'data_location'),
    row('Accès par l’institution (GAR, ENT…)', s.institutional_access === null ? null : s.institutional_access.length === 0 ? 'Aucun' : s.institutional_access.map((a) => ACCESS[a]!).join(', '), 'institutional_access'),
    row('Fonctionne hors connexion', yesNo(s.offline)),
    row('Logiciel libre', yesNo(s.open_source)),
    { label: 'Déclaration d’accessibilité', value: s.accessibility_url ? 'Publiée' : null, source: s.accessibility_url, pageDate: null },
  ];
}
