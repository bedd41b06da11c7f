/**
 * What the new-feed screen hands to the feed's edit screen after saving it: the columns detected
 * in its file, when the admin chose to map them (the edit screen then shows the mapping at once).
 */
import { atom } from "nanostores";
import type { FeedSniff } from "./admin-api.ts";

export interface FeedHandoff {
  id: number;
  detected: FeedSniff | null;
  /** The admin chose the mapped layout before the columns were known. */
  mapColumns: boolean;
}

export const $feedHandoff = atom<FeedHandoff | null>(null);

export function handOffFeed(handoff: FeedHandoff): void {
  $feedHandoff.set(handoff);
}

/** The handoff for this feed, taken once (null when there is none for it). */
export function takeFeedHandoff(id: number): FeedHandoff | null {
  const handoff = $feedHandoff.get();
  if (handoff?.id !== id) return null;
  $feedHandoff.set(null);
  return handoff;
}
