import type { FeedDocument } from '../../ingest/feed-schema.ts';

/** The feed items the demo generator writes: one type per collection of a feed document. */

type Item<K extends keyof FeedDocument> = NonNullable<FeedDocument[K]> extends ReadonlyArray<infer T> ? T : never;
export type FeedTour = Item<'tours'>;
export type FeedTourYear = Item<'tourYears'>;
export type FeedTeam = Item<'teams'>;
export type FeedAthlete = Item<'athletes'>;
export type FeedEvent = Item<'events'>;
export type FeedRound = Item<'rounds'>;
export type FeedHeat = Item<'heats'>;
export type FeedRoundScore = Item<'roundScores'>;
export type FeedFuture = Item<'futures'>;
export type FeedFutureOdd = Item<'futureOdds'>;
export type FeedFuturePrice = FeedFutureOdd['odds'][number];
