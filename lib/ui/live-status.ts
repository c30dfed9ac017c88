'use client';
// The state of this page's live stream, shared by the query hooks (fallback interval when the
// stream is down), the data-age indicator and the live connection itself. A tiny external store
// read with useSyncExternalStore: no provider to thread through the tree.
import { useSyncExternalStore } from 'react';
import type { StreamState } from './data-age';

export interface LiveStatus {
  stream: StreamState;
  /** Epoch ms of the newest proof the data is current (heartbeat, change, successful fetch). */
  freshAt: number | null;
  lastFetchFailed: boolean;
  /** The newest refetch's failure, for the stale notice (null after a success). */
  lastError: { message: string; code: string | null } | null;
  /** Epoch ms since which Doorwatch itself does not answer (the stream broke and a probe failed), else null. */
  unreachableSince: number | null;
}

const INITIAL: LiveStatus = { stream: 'connecting', freshAt: null, lastFetchFailed: false, lastError: null, unreachableSince: null };
let status: LiveStatus = INITIAL;
const listeners = new Set<() => void>();

export function setLiveStatus(patch: Partial<LiveStatus>): void {
  const next = { ...status, ...patch };
  if ((Object.keys(next) as (keyof LiveStatus)[]).every((k) => next[k] === status[k])) return;
  status = next;
  for (const l of listeners) l();
}

export function getLiveStatus(): LiveStatus {
  return status;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const serverSnapshot: LiveStatus = INITIAL;

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(subscribe, getLiveStatus, () => serverSnapshot);
}

const streamOf = () => status.stream;
const serverStream = () => serverSnapshot.stream;

/** Only the stream state (re-renders on connect/disconnect, not on every heartbeat). */
export function useStreamState(): StreamState {
  return useSyncExternalStore(subscribe, streamOf, serverStream);
}
