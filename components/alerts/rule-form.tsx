'use client';
// The form an admin creates or edits an alert rule with, and the draft it edits (text fields as typed).
import { useState } from 'react';
import type { z } from 'zod';
import {
  ALERT_COMPARISONS,
  ALERT_MEASURES,
  INSTANT_MEASURES,
  COMPARISON_SYMBOLS,
  MEASURE_LABELS,
  type TAlertComparison,
  type TAlertMeasure,
  type TAlertRule,
  type ZAlertRuleCreate,
} from '@/lib/contract/api/alerts';
import { useContactPoints } from '@/lib/ui/queries';
import { SERVER_NAME_PATTERN } from '@/lib/contract/server-name';

export type Draft = {
  name: string;
  measure: TAlertMeasure;
  comparison: TAlertComparison;
  threshold: string;
  windowSeconds: string;
  forSeconds: string;
  server: string;
  enabled: boolean;
  contactPointIds: string[];
};

export const EMPTY_DRAFT: Draft = {
  name: '',
  measure: 'naive_resumes',
  comparison: 'gt',
  threshold: '0',
  windowSeconds: '300',
  forSeconds: '0',
  server: '',
  enabled: true,
  contactPointIds: [],
};

export const draftOf = (r: TAlertRule): Draft => ({
  name: r.name,
  measure: r.measure,
  comparison: r.comparison,
  threshold: String(r.threshold),
  windowSeconds: String(r.windowSeconds),
  forSeconds: String(r.forSeconds),
  server: r.server ?? '',
  enabled: r.enabled,
  contactPointIds: r.contactPointIds,
});

export const bodyOf = (d: Draft): z.input<typeof ZAlertRuleCreate> => ({
  name: d.name.trim(),
  measure: d.measure,
  comparison: d.comparison,
  threshold: Number(d.threshold),
  windowSeconds: Number(d.windowSeconds),
  forSeconds: Number(d.forSeconds),
  server: d.server.trim() || null,
  enabled: d.enabled,
  contactPointIds: d.contactPointIds,
});

export function RuleForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  pending,
  error,
}: {
  initial: Draft;
  submitLabel: string;
  onSubmit: (d: Draft) => void;
  onCancel?: () => void;
  pending: boolean;
  error: unknown;
}) {
  const [d, setD] = useState(initial);
  const contactPoints = useContactPoints();
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  return (
    <form
      className="form-row"
      data-testid="alert-rule-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(d);
      }}
    >
      <label>
        Name
        <input
          className="input"
          value={d.name}
          onChange={(e) => set({ name: e.target.value })}
          required
          maxLength={120}
          data-testid="rule-name"
        />
      </label>
      <label>
        Measure
        <select
          className="select"
          value={d.measure}
          onChange={(e) => set({ measure: e.target.value as TAlertMeasure })}
          data-testid="rule-measure"
        >
          {ALERT_MEASURES.map((m) => (
            <option key={m} value={m}>
              {MEASURE_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Is
        <select className="select" value={d.comparison} onChange={(e) => set({ comparison: e.target.value as TAlertComparison })}>
          {ALERT_COMPARISONS.map((c) => (
            <option key={c} value={c}>
              {COMPARISON_SYMBOLS[c]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Threshold
        <input
          className="input num"
          type="number"
          step="any"
          value={d.threshold}
          onChange={(e) => set({ threshold: e.target.value })}
          required
          style={{ width: 90 }}
          data-testid="rule-threshold"
        />
      </label>
      <label>
        Window (s)
        <input
          className="input num"
          type="number"
          min={60}
          value={d.windowSeconds}
          onChange={(e) => set({ windowSeconds: e.target.value })}
          // An instant measure is read at the evaluation moment: its window would change nothing.
          disabled={INSTANT_MEASURES.has(d.measure)}
          title={INSTANT_MEASURES.has(d.measure) ? 'Not used: this measure is read at the evaluation moment' : undefined}
          required
          style={{ width: 90 }}
        />
      </label>
      <label>
        For (s)
        <input
          className="input num"
          type="number"
          min={0}
          value={d.forSeconds}
          onChange={(e) => set({ forSeconds: e.target.value })}
          required
          style={{ width: 80 }}
        />
      </label>
      <label>
        Server
        <input
          className="input mono"
          value={d.server}
          onChange={(e) => set({ server: e.target.value })}
          placeholder="all"
          pattern={SERVER_NAME_PATTERN}
          style={{ width: 120 }}
        />
      </label>
      {(contactPoints.data?.contactPoints ?? []).map((c) => (
        <label key={c.id} className="row gap small">
          <input
            type="checkbox"
            checked={d.contactPointIds.includes(c.id)}
            onChange={(e) =>
              set({ contactPointIds: e.target.checked ? [...d.contactPointIds, c.id] : d.contactPointIds.filter((x) => x !== c.id) })
            }
          />
          notify {c.name}
        </label>
      ))}
      <label className="row gap small">
        <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        enabled
      </label>
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {submitLabel}
      </button>
      {onCancel && (
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      )}
      {error ? (
        <div className="form-error" role="alert">
          {error instanceof Error ? error.message : String(error)}
        </div>
      ) : null}
    </form>
  );
}
