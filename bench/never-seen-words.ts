/**
 * The words of the never-seen searches, shared by `npm run bench` (its wrk script, in Lua)
 * and `npm run bench:never-seen` (in process), so that both time the same queries: a need, a
 * name or a synonym (typed with one error), plus one or two ordinary words.
 */
export const NEVER_SEEN_NEEDS: readonly string[] = ['kahoot', 'genially', 'correction de copies', 'presentation interactive', 'dictionnaire', 'carte mentale', 'mind map', 'TBI', 'LMS', 'speech to text', 'text to speech', 'maths', 'QCM', 'nuage de mots', 'calcul mental', "apprendre l'anglais", 'tableau blanc collaboratif', 'IA generative', 'bande dessinee', 'traduire un document', 'transcrire un cours', 'quiz game', 'whiteboard', "plateforme d'apprentissage", 'synthese vocale', 'detecter un texte ecrit par une IA', 'creer un podcast', 'dys'];
export const NEVER_SEEN_EXTRA: readonly string[] = ['eleves', 'classe', 'gratuit', 'college', 'lycee', 'primaire', 'enseignants', 'en ligne', 'pour le cours', 'francais', 'facile', 'rapide'];
/** A list as a Lua table of strings (the words hold no quote or backslash). */
export const luaList = (words: readonly string[]): string => `{${words.map((w) => `"${w}"`).join(',')}}`;
