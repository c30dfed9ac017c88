// GET /metrics — the Prometheus text exposition (prom-client), for a bearer token of role scrape, viewer or admin.
import { z } from 'zod';

export const ZPrometheusText = z.string().meta({ description: 'Prometheus text exposition format 0.0.4' });
