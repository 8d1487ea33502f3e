/**
 * A synthetic directory of N tools for growth tests: the bundled tools plus generated ones
 * with pronounceable names and descriptions drawn from a French vocabulary, so search
 * words are spread the way they are in real text (most words rare, a few common).
 */
import type { Dataset, ToolRecord } from '../src/domain.js';

const SYLLABLES = 'ba be bi bo cla cre da de di do fa fe fi go ka la le li lo lu ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi vo za ze zi zo'.split(' ');
const WORDS = (
  'apprendre classe élève enseignant cours devoir exercice lecture écriture calcul langue anglais histoire géographie sciences ' +
  'physique chimie biologie vidéo audio image carte mentale présentation diaporama tableau collaboratif projet évaluation ' +
  'correction orthographe grammaire vocabulaire révision examen brevet baccalauréat université formation adulte primaire ' +
  'collège lycée accessibilité dyslexie lecteur synthèse vocale traduction recherche source article bibliothèque données ' +
  'programmation robot algorithme statistiques géométrie fractions musique dessin théâtre philosophie économie'
).split(' ');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

export function generateDataset(base: Dataset, size: number): Dataset {
  const random = rng(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const tools: ToolRecord[] = [...base.tools];
  const template = base.tools.find((t) => t.status === 'published')!;
  // Long descriptions from the bundled ones' sentences, about as long as theirs, so that their
  // words are spread as in real text: a copy of one description in every tool would put each
  // of its words in every generated tool's long description.
  const sentences = base.tools.flatMap((t) => t.long_description.split(/(?<=[.!?])\s+/).filter((x) => x.length > 20));
  const longWords = base.tools.reduce((sum, t) => sum + t.long_description.split(/\s+/).length, 0) / Math.max(1, base.tools.length);
  const longDescription = () => {
    const parts: string[] = [];
    for (let words = 0; words < longWords; ) {
      const sentence = pick(sentences);
      parts.push(sentence);
      words += sentence.split(/\s+/).length;
    }
    return parts.join(' ');
  };
  for (let n = 0; tools.length < size; n++) {
    const name = `${pick(SYLLABLES)}${pick(SYLLABLES)}${pick(SYLLABLES)}`.replace(/^./, (c) => c.toUpperCase()) + ` ${n.toString(36)}`;
    const slug = `gen-${n.toString(36)}`;
    const words = Array.from({ length: 10 }, () => pick(WORDS));
    // About 1 tool in 40 mentions quizzes, as in the real directory.
    if (random() < 0.025) words[3] = 'quiz';
    tools.push({
      ...template,
      slug,
      name,
      category: pick(base.categories).slug,
      website_url: `https://${slug}.example.org/`,
      short_description: `Outil pour ${words.join(' ')}.`,
      long_description: longDescription(),
      pricing: { ...template.pricing, model: pick(['free', 'freemium', 'paid', 'enterprise'] as const) },
      education_program: random() < 0.1 ? template.education_program ?? { summary: 'Offre éducation de test pour les enseignants.', eligibility: ['enseignants'], url: null } : null,
      former_slugs: [],
      updated_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 3e10)).toISOString().replace('.000Z', 'Z'),
    });
  }
  return { ...base, tools };
}
