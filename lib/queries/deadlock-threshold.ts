// The reader's deadlock threshold: the same setting ingest uses (DOORWATCH_DEADLOCK_THRESHOLD_MS).
export { deadlockThresholdMs } from '@/lib/ingest/ingest-events';
