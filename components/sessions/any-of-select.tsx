'use client';
// A list filter kept in the URL parameter of its name, which takes one value from the select, or
// several (any of) from a link or an API user: a choice of several is shown as it is, so the select
// never pretends it is "Any". A change goes back to the first page.
import type { ReactNode } from 'react';
import { Tip } from '@/components/term';
import { splitList } from '@/lib/ui/list-paging';
import { useUrlState } from '@/lib/ui/url-state';

export function AnyOfSelect<V extends string>({
  id,
  label,
  values,
  labels,
  anyLabel,
  tip,
}: {
  /** The URL parameter, and the stem of the select's id and test id. */
  id: string;
  label: string;
  values: readonly V[];
  labels: Record<V, string>;
  anyLabel: string;
  /** The field's explanation, shown on hover and focus. */
  tip?: ReactNode;
}) {
  const { get, set } = useUrlState();
  const chosen = splitList(get(id));
  const name = (v: string) => labels[v as V] ?? v;
  return (
    <div className={tip ? 'field term' : 'field'}>
      <label htmlFor={`${id}-select`}>{label}</label>
      <select
        id={`${id}-select`}
        className="select"
        aria-describedby={tip ? `${id}-tip` : undefined}
        value={chosen.join(',')}
        onChange={(e) => set({ [id]: e.target.value || null, cursor: null })}
        data-testid={`${id}-select`}
      >
        <option value="">{anyLabel}</option>
        {chosen.length > 1 && <option value={chosen.join(',')}>{chosen.map(name).join(' or ')}</option>}
        {values.map((v) => (
          <option key={v} value={v}>
            {labels[v]}
          </option>
        ))}
      </select>
      {tip && <Tip id={`${id}-tip`}>{tip}</Tip>}
    </div>
  );
}
