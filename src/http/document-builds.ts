import { Sema } from 'async-sema';

/**
 * Who builds the documents the response cache does not hold: one key's cache misses must
 * not take every turn of the event loop from the others. Identical misses in flight are built once
 * (the others wait for it and are answered from the cache), and each API key has at most `perKey`
 * builds under way; its other misses wait their turn, behind its own builds only.
 */
export interface DocumentBuilds {
  /** The build of this cache key under way, if any: settles when its answer is sent (or abandoned). */
  inFlight(cacheKey: string): Promise<void> | undefined;
  /**
   * Registers the build of `cacheKey` at once (identical misses from now on wait for it), then
   * `turn()` waits for one of the key's build turns; `end()` once its answer is sent or abandoned,
   * or it was refused before its turn (calling it twice does nothing).
   */
  begin(apiKeyId: string, cacheKey: string): DocumentBuild;
}

export interface DocumentBuild {
  turn(): Promise<void>;
  end(): void;
}

export function documentBuilds(perKey: number): DocumentBuilds {
  const turns = new Map<string, { sema: Sema; holders: number }>();
  const building = new Map<string, Promise<void>>();
  return {
    inFlight: (cacheKey) => building.get(cacheKey),
    begin(apiKeyId, cacheKey) {
      let built!: () => void;
      const promise = new Promise<void>((resolve) => {
        built = resolve;
      });
      // A build already registered for the key (two misses that both found none) keeps its place.
      if (!building.has(cacheKey)) building.set(cacheKey, promise);
      const held = turns.get(apiKeyId) ?? { sema: new Sema(perKey), holders: 0 };
      turns.set(apiKeyId, held);
      held.holders += 1;
      let turn: Promise<void> | undefined;
      let ended = false;
      return {
        turn: () => {
          turn ??= held.sema.acquire();
          return turn;
        },
        end: () => {
          if (ended) return;
          ended = true;
          if (building.get(cacheKey) === promise) building.delete(cacheKey);
          built();
          // A turn asked for is given back once had (a build abandoned while it waited, when it comes).
          if (turn) void turn.then(() => held.sema.release());
          held.holders -= 1;
          if (held.holders === 0) turns.delete(apiKeyId);
        },
      };
    },
  };
}
