/** GET /levels, GET /subjects and GET /rules: the school vocabularies and the rules of `for_pupils`, cached per revision like the rest. */
import type { FastifyInstance } from 'fastify';
import { cachedOrBuild, makeResponse } from '../../web/cached-response.js';
import { API_PREFIX, serialize } from '../../directory/representations.js';
import { levelListBody, ruleListBody, subjectListBody } from '../../directory/school-queries.js';
import { getAndHead, type RouteContext } from '../../web/route-context.js';
import { LevelList, RuleList, SubjectList } from '../../schemas/school.js';
import { documented, NotModified, TooManyRequests } from '../../schemas/common.js';
import { httpRevision } from '../../web/revision-state.js';

export function schoolRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const vocabularies = [
    {
      path: 'levels', key: 'LV', operationId: 'listLevels', schema: LevelList, build: levelListBody, serialize: serialize.levelList,
      summary: 'School levels, with their aliases and published-tool counts',
      description: 'In school order, from maternelle to adultes. Each level has a French label, the aliases the `level` filter accepts (French classes and cycles, Belgian, Swiss and Québec names), the usual ages and the ISCED 2011 codes.',
    },
    {
      path: 'subjects', key: 'SJ', operationId: 'listSubjects', schema: SubjectList, build: subjectListBody, serialize: serialize.subjectList,
      summary: 'School subjects, with their aliases and published-tool counts',
      description: 'Each subject has a French label and the aliases the `subject` filter accepts (`hg`, `maths`, `anglais`, `snt`…). `transversal` is for tools that serve any subject.',
    },
    {
      path: 'rules', key: 'RL', operationId: 'listRules', schema: RuleList, build: ruleListBody, serialize: serialize.ruleList,
      summary: 'The rules of “Can my pupils use it?”, with every reason code explained',
      description: 'The rules `school.for_pupils` is computed with, per country (France is the default): the ages they use (autonomous use of generative AI under the national framework for AI in education, a minor’s own consent to an online service, majority) and every reason code an answer gives, with its answer, its French and English explanation and its source (the public text it comes from, or null when it comes from the tool’s own facts and their pages). `reading: true` marks a rule that is a reading of its text rather than a quotation.',
    },
  ] as const;
  for (const v of vocabularies) {
    getAndHead(
      app,
      `${API_PREFIX}/${v.path}`,
      {
        schema: {
          operationId: v.operationId,
          summary: v.summary,
          description: v.description,
          tags: ['school'],
          response: { 200: documented(v.schema, v.summary), 304: NotModified, 429: TooManyRequests },
        },
      },
      (request, reply) => {
        const state = ctx.directory.current;
        const entry = cachedOrBuild(httpRevision(state).responses, v.key, () =>
          makeResponse(200, (v.serialize as (body: unknown) => string)(v.build(state.model, ctx.license)), { link: ctx.licenseLink }),
        );
        return ctx.send(request, reply, state, entry);
      },
    );
  }
}
