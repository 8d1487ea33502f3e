/**
 * The bulk exports, built from the same representation as GET /tools/{slug} (toolDetail),
 * never from a second copy of the mapping:
 * - NDJSON: one tool detail per line, each line the `data` of GET /tools/{slug};
 * - CSV for spreadsheets: one row per tool, `;`-separated (a French Excel splits columns on
 *   `;`), every value quoted (RFC 4180), CRLF, UTF-8 with a BOM (without it Excel misreads
 *   accents), numbers with a decimal comma, lists joined with ` | `, a header row, and a
 *   single quote before a cell a spreadsheet would run as a formula (`spreadsheetSafe`);
 * - a Frictionless Data Package (datapackage.json, v2) describing both, with their schemas,
 *   sizes, hashes, the CC BY 4.0 licence and the publisher as source.
 */
import { createHash } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';
import { stringify } from 'csv-stringify/sync';
import { DATA_LOCATIONS, GENERATIVE_AI, labelTable, PRICING_MODELS, PUPIL_ACCOUNTS, PUPIL_USES, TRAINS_ON_USER_DATA } from '../domain.js';
import type { ReadModel } from '../read-model/read-model.js';
import { DataPackage, type TableField } from '../schemas/exports.js';
import { Tool } from '../schemas/tools.js';
import { CSV_TYPE, EXPORT_CSV_PATH, EXPORT_NDJSON_PATH, NDJSON_TYPE } from './discovery.js';
import { publisherHome, serialize, toolDetail, type License } from '../directory/representations.js';

/** `.toFixed`-free: the number as JSON writes it, with a decimal comma. */
const decimalComma = (n: number) => String(n).replace('.', ',');

type CsvValue = string | number | boolean | null;

interface CsvColumn extends TableField {
  value: (t: Tool) => CsvValue;
}

const DATE = { type: 'datetime' } as const;
/** A list as one cell: values joined by `|` (empty when unknown, `[]` stays empty too only when null). */
const joined = (list: readonly string[] | null) => (list === null ? null : list.join('|'));
const schoolEnum = (values: readonly string[]) => ({ type: 'string', constraints: { enum: [...values] } });

const ANSWER_FR: Readonly<Record<string, string>> = labelTable({ yes: 'oui', with_consent: 'avec accord', teacher_led: 'avec l’enseignant', no: 'non', unknown: 'inconnu' });
/** « 3–12 : avec l’enseignant ; 13–14 : avec accord ; 15+ : oui » */
const forPupilsSummary = (bands: Tool['school']['for_pupils']) =>
  bands.map((b) => `${b.from}${b.to === null ? '+' : b.to === b.from ? '' : `–${b.to}`} : ${ANSWER_FR[b.answer] ?? b.answer}`).join(' ; ');

/** One date per source, in the order of `school_sources`, `|`-joined (an empty slot where the date is null). */
const sourceDates = (t: Tool, key: 'page_date' | 'checked_at') => (t.school.sources.length === 0 ? null : t.school.sources.map((s) => s[key] ?? '').join('|'));

/** The school facts (API.md, "School use"), one column per field; empty where unknown. */
const SCHOOL_COLUMNS: readonly CsvColumn[] = [
  { name: 'levels', type: 'string', description: 'Niveaux (slugs de /levels, séparés par « | »)', value: (t) => joined(t.school.levels) },
  { name: 'subjects', type: 'string', description: 'Disciplines (slugs de /subjects, séparés par « | »)', value: (t) => joined(t.school.subjects) },
  { name: 'pupil_use', ...schoolEnum(PUPIL_USES), description: 'Usage par les élèves', value: (t) => t.school.pupil_use },
  { name: 'pupil_account', ...schoolEnum(PUPIL_ACCOUNTS), description: 'Ce qu’il faut à un élève pour participer', value: (t) => t.school.pupil_account },
  { name: 'min_age', type: 'integer', description: 'Âge minimal selon les conditions de l’éditeur', value: (t) => t.school.min_age },
  { name: 'consent_age', type: 'integer', description: 'Âge au-dessous duquel les conditions de l’éditeur exigent le consentement d’un parent ou de l’établissement', value: (t) => t.school.consent_age },
  { name: 'generative_ai', ...schoolEnum(GENERATIVE_AI), description: 'IA générative', value: (t) => t.school.generative_ai },
  { name: 'trains_on_user_data', ...schoolEnum(TRAINS_ON_USER_DATA), description: 'Entraînement de modèles sur les données des utilisateurs', value: (t) => t.school.trains_on_user_data },
  { name: 'data_location', ...schoolEnum(DATA_LOCATIONS), description: 'Lieu de stockage des données', value: (t) => t.school.data_location },
  { name: 'institutional_access', type: 'string', description: 'Accès institutionnels (gar, ent, apps_education, educonnect ; séparés par « | »)', value: (t) => joined(t.school.institutional_access) },
  { name: 'offline', type: 'boolean', description: 'Fonctionne hors connexion', value: (t) => t.school.offline },
  { name: 'open_source', type: 'boolean', description: 'Code source sous licence libre (OSI)', value: (t) => t.school.open_source },
  { name: 'for_pupils', type: 'string', description: 'Mes élèves peuvent-ils l’utiliser ? Une réponse par tranche d’âge (oui, avec accord, avec l’enseignant, non, inconnu), séparées par « ; » — le détail et les raisons sont dans le NDJSON et GET /rules', value: (t) => forPupilsSummary(t.school.for_pupils) },
  { name: 'accessibility_url', type: 'string', format: 'uri', description: 'Déclaration d’accessibilité', value: (t) => t.school.accessibility_url },
  { name: 'school_sources', type: 'string', description: 'Pages sources des faits scolaires (séparées par « | »)', value: (t) => t.school.sources.map((s) => s.url).join('|') || null },
  { name: 'school_sources_page_dates', type: 'string', description: 'Date que chaque page source donne d’elle-même (AAAA-MM-JJ, dans l’ordre de school_sources, séparées par « | » ; vide si la page n’en donne pas)', value: (t) => sourceDates(t, 'page_date') },
  { name: 'school_sources_checked_at', type: 'string', description: 'Jour où chaque page source a été lue pour ces faits (AAAA-MM-JJ, dans l’ordre de school_sources, séparés par « | » ; vide si elle ne l’a pas été)', value: (t) => sourceDates(t, 'checked_at') },
];

/** The CSV's columns, in order: the summary fields, pricing details, education program, freshness dates. */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  { name: 'slug', type: 'string', description: 'Identifiant de l’outil dans l’API', value: (t) => t.slug },
  { name: 'name', type: 'string', description: 'Nom', value: (t) => t.name },
  { name: 'short_description', type: 'string', description: 'Description courte', value: (t) => t.short_description },
  { name: 'category_slug', type: 'string', description: 'Catégorie (identifiant)', value: (t) => t.category.slug },
  { name: 'category_name', type: 'string', description: 'Catégorie', value: (t) => t.category.name },
  { name: 'pricing', type: 'string', description: 'Modèle tarifaire', constraints: { enum: [...PRICING_MODELS] }, value: (t) => t.pricing },
  { name: 'has_education_pricing', type: 'boolean', description: 'A une offre éducation', value: (t) => t.has_education_pricing },
  { name: 'website_url', type: 'string', format: 'uri', description: 'Site de l’outil', value: (t) => t.website_url },
  { name: 'logo_url', type: 'string', format: 'uri', description: 'Logo (vide si aucun)', value: (t) => t.logo_url },
  { name: 'api_url', type: 'string', format: 'uri', description: 'L’outil dans l’API', value: (t) => t.links.self },
  { name: 'pricing_summary', type: 'string', description: 'Résumé des offres', value: (t) => t.pricing_details.summary },
  { name: 'starting_price_amount', type: 'number', decimalChar: ',', description: 'Prix d’entrée (vide si inconnu)', value: (t) => t.pricing_details.starting_price?.amount ?? null },
  { name: 'starting_price_currency', type: 'string', description: 'Devise (ISO 4217)', value: (t) => t.pricing_details.starting_price?.currency ?? null },
  { name: 'starting_price_period', type: 'string', description: 'Période du prix', constraints: { enum: ['month', 'year', 'once'] }, value: (t) => t.pricing_details.starting_price?.period ?? null },
  { name: 'pricing_url', type: 'string', format: 'uri', description: 'Page des tarifs', value: (t) => t.pricing_details.url },
  { name: 'education_summary', type: 'string', description: 'Offre éducation (vide si aucune)', value: (t) => t.education_program?.summary ?? null },
  { name: 'education_eligibility', type: 'string', description: 'Publics éligibles, séparés par « | »', value: (t) => t.education_program?.eligibility.join(' | ') ?? null },
  { name: 'education_url', type: 'string', format: 'uri', description: 'Page de l’offre éducation', value: (t) => t.education_program?.url ?? null },
  { name: 'created_at', ...DATE, description: 'Ajouté à l’annuaire', value: (t) => t.freshness.created_at },
  { name: 'updated_at', ...DATE, description: 'Dernière mise à jour de la fiche', value: (t) => t.freshness.updated_at },
  { name: 'last_verified_at', ...DATE, description: 'Dernière vérification des faits par un éditeur (vide si jamais vérifiée)', value: (t) => t.freshness.last_verified_at },
  { name: 'tags', type: 'string', description: 'Mots-clés, séparés par « | »', value: (t) => t.tags.join('|') },
  { name: 'platforms', type: 'string', description: 'Plateformes, séparées par « | »', value: (t) => t.platforms.join('|') },
  { name: 'languages', type: 'string', description: 'Langues de l’interface (ISO 639-1), séparées par « | »', value: (t) => t.languages.join('|') },
  ...SCHOOL_COLUMNS,
];

function details(model: ReadModel, base: string, media: string): Tool[] {
  return model.tools.map((_, i) => toolDetail(model, i, base, media));
}

/** One line per published tool, in name order, each ending with `\n`. */
export function ndjsonExport(model: ReadModel, base: string, media: string): string {
  return details(model, base, media).map((t) => `${serialize.tool(t)}\n`).join('');
}

/**
 * A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula
 * by Excel, LibreOffice and Google Sheets (`=HYPERLINK(…)` in a tool's name, or worse, DDE).
 * Such a cell gets a single quote in front, as OWASP recommends ("CSV Injection"): shown
 * as text, the quote hidden by Excel. Only in the CSV, which is made for spreadsheets; the
 * NDJSON keeps the value as it is.
 */
export function spreadsheetSafe(value: CsvValue): CsvValue {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function csvExport(model: ReadModel, base: string, media: string): string {
  return stringify(
    details(model, base, media).map((t) => CSV_COLUMNS.map((c) => spreadsheetSafe(c.value(t)))),
    {
      delimiter: ';',
      bom: true,
      record_delimiter: 'windows',
      header: true,
      columns: CSV_COLUMNS.map((c) => c.name),
      // Every value in quotes (RFC 4180 allows it), not only those with `;`, `"` or a line
      // break: LibreOffice's import dialog ticks comma, semicolon and tab by default, and
      // splits an unquoted description at its commas. Empty (null) stays empty.
      quoted: true,
      cast: { boolean: (v) => (v ? 'true' : 'false'), number: decimalComma },
    },
  );
}

/**
 * A Table Schema for the NDJSON lines, read from the Tool response schema itself (so it
 * cannot drift): top-level fields with their type; nested values are `object` or `array`.
 */
function tableSchemaOf(schema: TSchema): TableField[] {
  return Object.entries(schema.properties as Record<string, TSchema>).map(([name, field]) => {
    const nonNull = (field.anyOf as TSchema[] | undefined)?.filter((s) => s.type !== 'null') ?? [field];
    const inner = nonNull.length === 1 ? nonNull[0]! : field;
    const described = field.description ?? inner.description;
    const out: TableField = { name, type: 'string', ...(described ? { description: described } : {}) };
    if (inner.anyOf && (inner.anyOf as TSchema[]).every((s) => s.const !== undefined)) {
      out.constraints = { enum: (inner.anyOf as TSchema[]).map((s) => String(s.const)) };
    } else if (inner.format === 'date-time') out.type = 'datetime';
    else if (inner.format === 'uri') out.format = 'uri';
    else if (['boolean', 'integer', 'number', 'object', 'array'].includes(inner.type as string)) out.type = inner.type as string;
    return out;
  });
}

const NDJSON_FIELDS = tableSchemaOf(Tool);
const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const serializeDataPackage = fastJson(DataPackage);

export interface ExportContext {
  base: string;
  license: License;
  publisher: { name: string; url: string | null };
}

/** The data package for the export bytes actually served (their size and hash included). */
export function dataPackage(ctx: ExportContext, csv: { body: Buffer }, ndjson: { body: Buffer }): string {
  return serializeDataPackage({
    $schema: 'https://datapackage.org/profiles/2.0/datapackage.json',
    name: 'annuaire-outils-ia-edtech',
    title: `${ctx.publisher.name} — outils d’IA et EdTech pour l’éducation francophone`,
    description:
      'Tous les outils publiés de l’annuaire, en CSV pour tableur et en NDJSON (le détail de chaque outil, tel que GET /tools/{slug} le donne). ' +
      `Réutilisation libre sous licence ${ctx.license.name}, en citant : ${ctx.license.attribution}.`,
    homepage: publisherHome(ctx.publisher, ctx.base),
    licenses: [{ name: 'CC-BY-4.0', path: ctx.license.url, title: 'Creative Commons Attribution 4.0 International' }],
    sources: [{ title: ctx.publisher.name, path: publisherHome(ctx.publisher, ctx.base) }],
    contributors: [{ title: ctx.publisher.name, path: publisherHome(ctx.publisher, ctx.base), roles: ['publisher'] }],
    keywords: ['éducation', 'intelligence artificielle', 'edtech', 'outils numériques'],
    resources: [
      {
        name: 'tools-csv',
        path: `${ctx.base}${EXPORT_CSV_PATH}`,
        type: 'table',
        title: 'Outils (CSV pour tableur)',
        description:
          'Une ligne par outil publié ; séparateur « ; », guillemets RFC 4180, UTF-8 avec BOM, virgule décimale, listes séparées par « | ». ' +
          'Une cellule qui commencerait par =, +, -, @, une tabulation ou un retour chariot est précédée d’une apostrophe (\') pour qu’un tableur ne la lise pas comme une formule (recommandation OWASP) ; le NDJSON donne la valeur exacte.',
        format: 'csv',
        mediatype: CSV_TYPE,
        encoding: 'utf-8',
        bytes: csv.body.length,
        hash: sha256(csv.body),
        dialect: { delimiter: ';', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true, header: true },
        schema: { fields: CSV_COLUMNS.map(({ value: _value, ...field }) => field), primaryKey: ['slug'], missingValues: [''] },
      },
      {
        name: 'tools-ndjson',
        path: `${ctx.base}${EXPORT_NDJSON_PATH}`,
        type: 'table',
        title: 'Outils en détail (NDJSON)',
        description: 'Un objet JSON par ligne : le champ `data` de GET /tools/{slug} pour chaque outil publié.',
        format: 'ndjson',
        mediatype: NDJSON_TYPE,
        encoding: 'utf-8',
        bytes: ndjson.body.length,
        hash: sha256(ndjson.body),
        schema: { fields: NDJSON_FIELDS, primaryKey: ['slug'] },
      },
    ],
  });
}
