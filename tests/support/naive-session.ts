// A naive resume as a reporter sends it, starting at `t` (ms): opened, durable upgrade, drop, the
// boundary resume answered as if nothing happened. The client is left waiting from t + 250 (an
// unended deadlock). Event ids are `${token}.0` … `${token}.4`.
export function naiveSession(token: string, t: number) {
  const at = (ms: number) => new Date(t + ms).toISOString();
  return [
    { id: `${token}.0`, token, type: 'session.opened', at: at(0), data: {} },
    { id: `${token}.1`, token, type: 'upgrade.accepted', at: at(100), data: { eventId: 3 } },
    { id: `${token}.2`, token, type: 'stream.dropped', at: at(150), data: { reason: 'reset' } },
    { id: `${token}.3`, token, type: 'resume.requested', at: at(200), data: { lastEventId: 3 } },
    { id: `${token}.4`, token, type: 'resume.accepted', at: at(250), data: { replayed: 0 } },
  ];
}
