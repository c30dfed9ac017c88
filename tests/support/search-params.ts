// Query parameters as the tests write them: a record whose arrays are repeated parameters
// (`{ flag: ['a', 'b'] }` → `flag=a&flag=b`), the way the API's repeatable filters are sent.
export type QueryRecord = Record<string, string | string[]>;

export function searchParams(o: QueryRecord): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) for (const x of [v].flat()) p.append(k, x);
  return p;
}
