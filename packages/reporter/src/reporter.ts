// createReporter: options → config, then the parts (queue, sender, delivery loop, loss
// accounting) wired together. See docs/reporter.md for the delivery guarantees.
import { ingestEndpoint, resolveConfig } from './config.js';
import { BODY_OVERHEAD } from './envelope.js';
import { Delivery } from './delivery.js';
import { ReporterError } from './errors.js';
import { LossAccounting } from './loss.js';
import { EventQueue } from './queue.js';
import { Sender } from './sender.js';
import { createSigner } from './signing.js';
import type { Reporter, ReporterOptions, ReporterStats, ReportableEvent } from './types.js';
import { idOf, validateEvent } from './validate-event.js';

/** Creates a batching, signing, retrying client for Doorwatch's ingest API. */
export function createReporter(options: ReporterOptions): Reporter {
  const cfg = resolveConfig(options);
  const sign = createSigner(cfg.secret);
  const endpoint = ingestEndpoint(cfg);
  const loss = new LossAccounting(cfg.instance, cfg);
  const queue = new EventQueue(cfg);
  const delivery = new Delivery(cfg, {
    queue,
    loss,
    sender: (timers) => new Sender({ endpoint, sign, fetch: cfg.fetch, requestTimeoutMs: cfg.requestTimeoutMs, timers }),
  });

  function invalid(event: unknown, message: string): false {
    const id = idOf(event);
    loss.reject(1, new ReporterError('invalid_event', message, { eventIds: id === null ? [] : [id] }));
    return false;
  }

  function report(event: ReportableEvent): boolean {
    loss.counts.reported++;
    if (delivery.closing) {
      loss.drop('closed', [idOf(event) ?? '']);
      return false;
    }
    const problem = validateEvent(event);
    if (problem !== null) return invalid(event, problem);
    let json: string;
    try {
      json = JSON.stringify(event);
    } catch (err) {
      return invalid(event, `event is not JSON-serialisable: ${String(err)}`);
    }
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes + BODY_OVERHEAD > cfg.maxBatchBytes) {
      return invalid(event, `event is ${bytes} bytes serialised, over the ${cfg.maxBatchBytes}-byte batch limit`);
    }
    queue.push(event.id, json, bytes, performance.now());
    delivery.queued();
    return true;
  }

  function stats(): ReporterStats {
    return { ...loss.counts, pendingEvents: delivery.buffered(), inFlightBatches: delivery.inFlight ? 1 : 0 };
  }

  return { report, flush: () => delivery.flush(), close: () => delivery.close(), stats };
}
