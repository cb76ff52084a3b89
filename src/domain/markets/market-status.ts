import type { ScopeResult } from './scope-result.ts';
/**
 * Market status and bet stop: the status a market or priced outcome is published with,
 * and why it is not open. The operator's word (a `markets` or `odds` feed item's status) comes
 * first (EVENT_STARTED is written there, by the ingest, when the event goes LIVE), then the results,
 * then the bet stops derived for a LIVE event: the feed's silence, a score just changed.
 */

/**
 * Why a market or outcome is not OPEN: `OPERATOR` set it; `FEED_STALE`, the feed has been silent about
 * the LIVE event for FEED_STALE_SECONDS (a bet stop until its next message); `EVENT_STARTED`, the
 * event went LIVE since the price was set (until it is priced again); `SCORE_CHANGE`, a short
 * suspension after a score; `RESULTED`, its result is in.
 */
export const STATUS_REASONS = ['OPERATOR', 'FEED_STALE', 'EVENT_STARTED', 'SCORE_CHANGE', 'RESULTED'] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

export type PublishedStatus = 'OPEN' | 'SUSPENDED' | 'CLOSED';

export interface StatusFacts {
  /** The stored (operator's) status of the market and of the outcome (OPEN for a market on its own). */
  marketStatus: string;
  marketStatusReason: string | null;
  oddStatus: string;
  oddStatusReason: string | null;
  /** The result deciding the market is in. */
  resulted: boolean;
  eventStatus: string;
  /** The feed has been silent about the event for FEED_STALE_SECONDS (domain/feed-health.ts). */
  feedStale: boolean;
  /** A score of the event changed within its competition's SCORE_CHANGE_SUSPEND_SECONDS. */
  scoreChange: boolean;
}

export interface StatusWithReason {
  status: PublishedStatus;
  /** Set exactly when the status is not OPEN. */
  statusReason?: StatusReason;
}

const FINAL = new Set(['COMPLETED', 'CANCELLED']);

export function marketStatus(facts: StatusFacts): StatusWithReason {
  const operator = (own: string, reason: string | null, status: PublishedStatus) =>
    own === status ? ((reason as StatusReason | null) ?? 'OPERATOR') : null;
  const closedBy =
    operator(facts.oddStatus, facts.oddStatusReason, 'CLOSED') ??
    operator(facts.marketStatus, facts.marketStatusReason, 'CLOSED');
  if (closedBy) return { status: 'CLOSED', statusReason: closedBy };
  if (facts.resulted || FINAL.has(facts.eventStatus)) return { status: 'CLOSED', statusReason: 'RESULTED' };
  const suspendedBy =
    operator(facts.oddStatus, facts.oddStatusReason, 'SUSPENDED') ??
    operator(facts.marketStatus, facts.marketStatusReason, 'SUSPENDED');
  if (suspendedBy) return { status: 'SUSPENDED', statusReason: suspendedBy };
  if (facts.eventStatus !== 'LIVE') return { status: 'OPEN' };
  // The bet stops the store derives for a LIVE event, the most pressing first.
  if (facts.feedStale) return { status: 'SUSPENDED', statusReason: 'FEED_STALE' };
  if (facts.scoreChange) return { status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' };
  return { status: 'OPEN' };
}

/**
 * The status published for an outcome: CLOSED once its scope is decided or called off, or its event
 * is over, or the operator closed it or its market; SUSPENDED when either is suspended.
 */
export function publishedStatus(
  marketStatus: string,
  oddStatus: string,
  result: ScopeResult | undefined,
  eventStatus: string,
): 'OPEN' | 'SUSPENDED' | 'CLOSED' {
  if (marketStatus === 'CLOSED' || oddStatus === 'CLOSED') return 'CLOSED';
  if (result && result.state !== 'pending') return 'CLOSED';
  if (eventStatus === 'COMPLETED' || eventStatus === 'CANCELLED') return 'CLOSED';
  if (marketStatus === 'SUSPENDED' || oddStatus === 'SUSPENDED') return 'SUSPENDED';
  return 'OPEN';
}
