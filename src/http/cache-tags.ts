import type { FastifyRequest } from 'fastify';
import { competitionTag, eventTag, futuresTag } from '../domain/changes.ts';
import { COMPETITIONS } from '../domain/competitions.ts';
import { parsePublicId } from '../domain/public-id.ts';
import { canRead } from '../read/access-scope.ts';
import { scopeOf } from './plugins/auth.ts';

/**
 * What each cached public document depends on, declared by its route (`config.cacheTags`): the
 * response cache keeps a document until a change names one of its tags (domain/changes.ts). A route
 * without tags is answered with an ETag but never cached.
 */
export type CacheTags = (request: FastifyRequest) => string[];

/** The catalogue: changes with the code, not the data. */
export const staticTags: CacheTags = () => [];

/** One event's documents, the event named by the path parameter `param` (prefixed or bare). */
export const eventTags =
  (param: string): CacheTags =>
  (request) => {
    const id = parsePublicId((request.params as Record<string, string>)[param] ?? '');
    return id ? [eventTag(id.uuid)] : [];
  };

/** A document that spans events of one competition (a card, a bracket). */
export const competitionTags =
  (competition: string): CacheTags =>
  () => [competitionTag(competition)];

/** The futures of one competition, shown beside an event's own odds. */
export const seasonFuturesTags =
  (competition: string): CacheTags =>
  () => [futuresTag(competition)];

export const allTags =
  (...parts: CacheTags[]): CacheTags =>
  (request) =>
    parts.flatMap((part) => part(request));

/** A list over the competitions asked for (`competition` or `sportType`), else every one the key reads. */
export const eventListTags: CacheTags = (request) => listed(request).map(competitionTag);

/** Futures of the competition in the path (`sportType`), or of every competition the key reads. */
export const futuresTags: CacheTags = (request) => {
  const sportType = (request.params as Record<string, string | undefined>).sportType;
  return sportType ? [futuresTag(sportType)] : listed(request).map(futuresTag);
};

function listed(request: FastifyRequest): string[] {
  const query = request.query as Record<string, unknown> | undefined;
  // Read before or after the list parameters are normalised (list-params.ts): one key, a comma list, or a list.
  const asked = query?.competition ?? query?.sportType;
  if (typeof asked === 'string' || Array.isArray(asked)) return [asked].flat().flatMap((key) => String(key).split(','));
  const scope = scopeOf(request);
  return COMPETITIONS.filter((c) => canRead(scope, c.key)).map((c) => c.key);
}
