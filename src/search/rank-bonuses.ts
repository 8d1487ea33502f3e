/** The ranking's bonuses (search-index.ts, `rank`), in score units: a rare word in a tool's name scores about 13. */

/**
 * Bonus when the query holds the whole name (`canvaa` for Canva, not for Canvas LMS), times
 * the weakest match among its words; in score units (a rare word in the name scores about 13).
 */
export const WHOLE_NAME_BONUS = 8;
/**
 * Bonus per unit that the tool's category names (`correction` for a tool of « Évaluation et
 * correction »): among tools that all mention a word, those whose very purpose it is first.
 */
export const CATEGORY_BONUS = 3;
/** Bonus for a tool that has one of the levels the query names (`6e`, `lycée`). */
export const LEVEL_BONUS = 4;
/** Bonus for a free tool when the query asks for one (a third of it for a freemium one). */
export const FREE_BONUS = 3;
/** Bonus per school fact the query asks for (`hors ligne`) that a tool is known to have. */
export const FACT_BONUS = 4;
/**
 * Bonus for a tool that the work of an exam the query names selects (« révision », « annales »
 * for `brevet`): a rare word in the name scores about 13, a level 4. Enough to bring the
 * revision tools of « français 3e brevet » before the other French tools, not before a tool
 * that holds the query's words better.
 */
export const EXAM_BONUS = 14;
/** Bonus, on top of EXAM_BONUS, for a tool whose file names the exam itself (`DELF`): first among the tools of its work. */
export const EXAM_NAMED_BONUS = 6;
/** Bonus for a tool of the subject a topic word belongs to (`orthographe`: français). */
export const TOPIC_BONUS = 2;
/** A tool known to suit the age a query or list keeps (not `unknown` there): more than a rare word in the name, so first among those matching as well. */
export const KNOWN_AGE_BONUS = 16;
