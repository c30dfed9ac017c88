"""Doorwatch reporter for Python MCP servers: one file, standard library only (Python 3.8+).

Reports session-transition events to Doorwatch's ingest API (``POST /api/v1/ingest/{server}``):
batched, signed with Standard Webhooks (HMAC-SHA256 over ``id.timestamp.body``), sent by one
background thread, retried with exponential backoff and full jitter (a ``Retry-After`` on 429/503
is a floor), and every batch carries this reporter's loss counts
``{"events": [...], "reporter": {"instance", "dropped", "failed"}, "instance", "version"}`` so Doorwatch
shows what was lost, and which instance and version (build, when given) of the server sent it.

    from doorwatch_reporter import Reporter, new_event_id, now

    reporter = Reporter("https://doorwatch.example.com", "my-server", "whsec_...")
    reporter.report({"id": new_event_id(), "token": session_id, "type": "session.opened", "at": now()})
    reporter.close(timeout=10)

Same guarantees as the TypeScript package (docs/reporter.md): each reported event ends up exactly
once as accepted, duplicate, rejected, dropped or failed (see ``stats()``).
"""

import base64
import collections
import email.utils
import hashlib
import hmac
import json
import os
import random
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timezone

__all__ = ["Reporter", "ReporterError", "new_event_id", "now", "MAX_EVENTS_PER_REQUEST", "MAX_BODY_BYTES"]

MAX_EVENTS_PER_REQUEST = 1000
MAX_BODY_BYTES = 1024 * 1024
USER_AGENT = "doorwatch-reporter-python/1"

_ID_PATTERN = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_VERSION_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+:/-]{0,63}$")
_BODY_PREFIX = '{"events":['
# Room for the longest `],"reporter":{...},"instance":…,"version":…}` suffix is kept in every size check.
_BODY_OVERHEAD = (len(_BODY_PREFIX) + len('],"reporter":{"instance":"","dropped":,"failed":},"instance":"","version":""}')
                  + 2 * 128 + 2 * 16 + 64)
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")


def new_event_id(prefix="evt"):
    """A fresh, unique event id. Generate it once, when the event happens, and keep it."""
    return "%s_%s" % (prefix, uuid.uuid4())


def now():
    """The current time as the contract wants it: RFC 3339, UTC, millisecond precision."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ReporterError(Exception):
    """A terminal delivery problem, passed to on_error. ``code`` is one of: invalid_event,
    events_rejected, batch_rejected, retries_exhausted, close_timeout, events_dropped."""

    def __init__(self, code, message, event_ids=(), status=None):
        super().__init__(message)
        self.code = code
        self.event_ids = list(event_ids)
        self.status = status


def sign(secret, message_id, timestamp, body):
    """Standard Webhooks signature: ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``."""
    key = _secret_key(secret)
    mac = hmac.new(key, ("%s.%d.%s" % (message_id, timestamp, body)).encode("utf-8"), hashlib.sha256)
    return "v1," + base64.b64encode(mac.digest()).decode("ascii")


def _secret_key(secret):
    encoded = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    if not encoded or not _BASE64.match(encoded):
        raise ValueError('secret must be "whsec_" followed by base64 (as Doorwatch issues it)')
    return base64.b64decode(encoded)


def backoff_seconds(retry, base, cap, retry_after=None, rand=random.random):
    """Full-jitter exponential backoff: random(0, min(cap, base * 2**retry)); Retry-After is a floor."""
    ceiling = min(cap, base * (2 ** min(max(retry, 0), 62)))
    delay = min(max(rand(), 0.0), 1.0) * ceiling
    return max(delay, retry_after or 0.0)


def parse_retry_after(value, at=None):
    """Seconds to wait from an HTTP Retry-After (delta-seconds or HTTP-date), or None."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(int(value))
    if not re.search(r"[A-Za-z]", value):
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - (time.time() if at is None else at))


def _default_instance():
    host = re.sub(r"[^A-Za-z0-9._:-]", "_", socket.gethostname())[:96] or "host"
    return "%s-%d-%s" % (host, os.getpid(), os.urandom(4).hex())


class _Retry(Exception):
    def __init__(self, message, status=None, retry_after=None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class _Fatal(Exception):
    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


class Reporter:
    """Batching, signing, retrying client for Doorwatch's ingest API. Thread-safe.

    The sender thread is a daemon: an idle or retrying reporter never keeps the process alive.
    Call ``close()`` on shutdown to send what is left (bounded by its timeout).
    """

    def __init__(self, url, server, secret, instance=None, version=None, max_batch_size=500, max_batch_bytes=1000000,
                 flush_interval=0.2, max_buffered_events=10000, max_retries=8, retry_deadline=300.0,
                 base_backoff=0.5, max_backoff=30.0, request_timeout=10.0, on_error=None, on_drop=None):
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError("url must be an http(s) URL, got %r" % (url,))
        if not server:
            raise ValueError("server is required")
        _secret_key(secret)  # a malformed secret fails here, at startup, not per batch
        if not 1 <= max_batch_size <= MAX_EVENTS_PER_REQUEST:
            raise ValueError("max_batch_size must be in [1, %d]" % MAX_EVENTS_PER_REQUEST)
        if not 64 <= max_batch_bytes <= MAX_BODY_BYTES:
            raise ValueError("max_batch_bytes must be in [64, %d]" % MAX_BODY_BYTES)
        if max_buffered_events < max_batch_size:
            raise ValueError("max_buffered_events must be >= max_batch_size")
        self.instance = instance or _default_instance()
        if not _ID_PATTERN.match(self.instance):
            raise ValueError("instance must be 1-128 of A-Za-z0-9._:-")
        # The server's version (build): Doorwatch records it on each session it serves.
        if version is not None and (not isinstance(version, str) or not _VERSION_PATTERN.match(version)):
            raise ValueError("version must be 1-64 of A-Za-z0-9._+:/-, starting with a letter or digit")
        self.version = version
        base = url if url.endswith("/") else url + "/"
        self._endpoint = urllib.parse.urljoin(base, "api/v1/ingest/" + urllib.parse.quote(server, safe=""))
        self._secret = secret
        self._max_batch_size = max_batch_size
        self._max_batch_bytes = max_batch_bytes
        self._flush_interval = flush_interval
        self._max_buffered = max_buffered_events
        self._max_retries = max_retries
        self._retry_deadline = retry_deadline
        self._base_backoff = base_backoff
        self._max_backoff = max_backoff
        self._request_timeout = request_timeout
        self._on_error = on_error
        self._on_drop = on_drop

        self._cond = threading.Condition()
        self._buffer = collections.deque()  # (seq, id, json, bytes, monotonic time buffered)
        self._batch = []  # the batch being delivered (sent or awaiting its retry)
        self._next_seq = 0
        self._flush_targets = 0  # number of flush()/close() callers waiting: send without waiting for age
        self._resume_at = 0.0  # a Retry-After applies to the endpoint, not one batch
        self._closing = False
        self._closed = False
        self._counts = dict(reported=0, sent=0, accepted=0, duplicates=0, rejected=0, dropped=0, failed=0, retries=0)
        self._thread = threading.Thread(target=self._run, name="doorwatch-reporter", daemon=True)
        self._thread.start()

    # ---- public API ---------------------------------------------------------------------------

    def report(self, event):
        """Buffer one event (a dict). Never raises; returns False if it was refused."""
        with self._cond:
            self._counts["reported"] += 1
            if self._closing:
                self._counts["dropped"] += 1
                self._notify_drop("closed", [_id_of(event)])
                return False
        problem = _validate(event)
        text = None
        if problem is None:
            try:
                text = json.dumps(event, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError) as err:
                problem = "event is not JSON-serialisable: %s" % err
        if problem is None and len(text.encode("utf-8")) + _BODY_OVERHEAD > self._max_batch_bytes:
            problem = "event is over the %d-byte batch limit" % self._max_batch_bytes
        with self._cond:
            if problem is not None:
                self._counts["rejected"] += 1
                self._error(ReporterError("invalid_event", problem, [i for i in [_id_of(event)] if i]))
                return False
            self._buffer.append((self._next_seq, event["id"], text, len(text.encode("utf-8")), time.monotonic()))
            self._next_seq += 1
            dropped = []
            while len(self._buffer) + len(self._batch) > self._max_buffered and self._buffer:
                dropped.append(self._buffer.popleft()[1])
            if dropped:
                self._counts["dropped"] += len(dropped)
                self._notify_drop("overflow", dropped)
            self._cond.notify_all()
            return True

    def flush(self, timeout=None):
        """Wait until every event reported before the call is settled. True if it was, False on timeout."""
        with self._cond:
            target = self._next_seq
            self._flush_targets += 1
            self._cond.notify_all()
            try:
                return self._cond.wait_for(lambda: self._closed or self._settled_below() >= target, timeout)
            finally:
                self._flush_targets -= 1

    def close(self, timeout=10.0):
        """Stop accepting events, send what is left for at most ``timeout`` seconds, stop the thread.
        What is still unacknowledged then is counted as failed. True if everything was settled."""
        with self._cond:
            if self._closed:
                return True
            self._closing = True
            self._cond.notify_all()
        done = self.flush(timeout)
        with self._cond:
            if not self._closed:
                left = [e[1] for e in self._batch] + [e[1] for e in self._buffer]
                self._closed = True
                self._batch = []
                self._buffer.clear()
                if left:
                    self._counts["failed"] += len(left)
                    self._error(ReporterError("close_timeout", "close() timed out with %d event(s) unacknowledged" % len(left), left))
                self._cond.notify_all()
        self._thread.join(0.5)
        return done

    def stats(self):
        with self._cond:
            out = dict(self._counts)
            out["pending_events"] = len(self._buffer) + len(self._batch)
            return out

    # ---- sender thread ------------------------------------------------------------------------

    def _settled_below(self):
        if self._batch:
            return self._batch[0][0]
        if self._buffer:
            return self._buffer[0][0]
        return self._next_seq

    def _due(self):
        """Seconds until the next batch should go (0 = now), or None when there is nothing to send."""
        if not self._buffer:
            return None
        wait_resume = self._resume_at - time.monotonic()
        if wait_resume > 0:
            return wait_resume
        if self._closing or self._flush_targets or len(self._buffer) >= self._max_batch_size:
            return 0.0
        return max(0.0, self._buffer[0][4] + self._flush_interval - time.monotonic())

    def _run(self):
        while True:
            with self._cond:
                while True:
                    if self._closed:
                        return
                    due = self._due()
                    if due == 0.0:
                        break
                    self._cond.wait(due)
                self._batch = self._take_batch()
                batch = list(self._batch)
            self._deliver(batch)
            with self._cond:
                if self._batch and self._batch[0][0] == batch[0][0]:
                    self._batch = []
                self._cond.notify_all()

    def _take_batch(self):
        batch, size = [], _BODY_OVERHEAD
        while self._buffer and len(batch) < self._max_batch_size:
            add = self._buffer[0][3] + (1 if batch else 0)
            if batch and size + add > self._max_batch_bytes:
                break
            batch.append(self._buffer.popleft())
            size += add
        return batch

    def _deliver(self, batch):
        ids = [e[1] for e in batch]
        with self._cond:
            status = {"instance": self.instance, "dropped": self._counts["dropped"], "failed": self._counts["failed"]}
            self._counts["sent"] += len(batch)
        origin = ',"instance":' + json.dumps(self.instance)
        if self.version is not None:
            origin += ',"version":' + json.dumps(self.version)
        body = (_BODY_PREFIX + ",".join(e[2] for e in batch) + '],"reporter":' + json.dumps(status, separators=(",", ":"))
                + origin + "}")
        message_id = "msg_%s" % uuid.uuid4()  # the same on every retry of this body: Doorwatch dedupes
        started = time.monotonic()
        retry = 0
        while True:
            try:
                answer = self._post(message_id, body)
            except _Fatal as err:
                with self._cond:
                    if self._closed:
                        return
                    self._counts["rejected"] += len(batch)
                    self._error(ReporterError("batch_rejected", str(err), ids, err.status))
                return
            except _Retry as err:
                delay = backoff_seconds(retry, self._base_backoff, self._max_backoff, err.retry_after)
                with self._cond:
                    if self._closed:
                        return
                    if err.retry_after:
                        self._resume_at = max(self._resume_at, time.monotonic() + err.retry_after)
                    if retry >= self._max_retries or time.monotonic() + delay - started > self._retry_deadline:
                        self._counts["failed"] += len(batch)
                        self._error(ReporterError("retries_exhausted", "gave up after %d attempt(s): %s" % (retry + 1, err), ids, err.status))
                        return
                    # Sleep, but wake up if close() times out meanwhile.
                    self._cond.wait_for(lambda: self._closed, delay)
                    if self._closed:
                        return
                    retry += 1
                    self._counts["retries"] += 1
                continue
            with self._cond:
                if self._closed:
                    return
                self._settle(batch, answer)
            return

    def _settle(self, batch, answer):
        n = len(batch)
        rejected_list = answer.get("rejected") if isinstance(answer.get("rejected"), list) else []
        rejected = min(len(rejected_list), n)
        duplicates = answer.get("duplicates")
        duplicates = min(duplicates if isinstance(duplicates, int) and duplicates >= 0 else 0, n - rejected)
        self._counts["accepted"] += n - rejected - duplicates
        self._counts["duplicates"] += duplicates
        self._counts["rejected"] += rejected
        if rejected_list:
            ids = [r.get("id", "") if isinstance(r, dict) else "" for r in rejected_list]
            self._error(ReporterError("events_rejected", "ingest dead-lettered %d event(s)" % len(ids), ids))

    def _post(self, message_id, body):
        timestamp = int(time.time())
        data = body.encode("utf-8")
        request = urllib.request.Request(self._endpoint, data=data, method="POST", headers={
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            "webhook-id": message_id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": sign(self._secret, message_id, timestamp, body),
        })
        try:
            with _OPENER.open(request, timeout=self._request_timeout) as response:
                text = response.read().decode("utf-8", "replace")
                status = response.status
        except urllib.error.HTTPError as err:
            status = err.code
            text = err.read().decode("utf-8", "replace")
            retry_after = parse_retry_after(err.headers.get("retry-after"))
            message = "HTTP %d: %s" % (status, _error_message(text))
            if status == 429 or status >= 500:
                raise _Retry(message, status, retry_after)
            raise _Fatal("ingest refused the batch with " + message, status)
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise _Retry("request failed: %s" % err)
        if not 200 <= status < 300:
            raise _Fatal("ingest answered %d" % status, status)
        try:
            answer = json.loads(text) if text else {}
        except ValueError:
            answer = {}
        return answer if isinstance(answer, dict) else {}

    # ---- callbacks (a raising callback never breaks delivery) ---------------------------------

    def _error(self, err):
        if self._on_error is None:
            return
        try:
            self._on_error(err)
        except Exception:  # noqa: BLE001 - the caller's bug must not stop delivery
            pass

    def _notify_drop(self, reason, ids):
        if self._on_drop is not None:
            try:
                self._on_drop(reason, ids)
            except Exception:  # noqa: BLE001
                pass
        else:
            self._error(ReporterError("events_dropped", "dropped %d event(s): %s" % (len(ids), reason), ids))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer (3xx, not retried), never followed with the signed body."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _error_message(text):
    try:
        err = json.loads(text).get("error", {})
        return "%s: %s" % (err.get("code"), err.get("message"))
    except (ValueError, AttributeError):
        return text[:200]


def _id_of(event):
    return event.get("id", "") if isinstance(event, dict) and isinstance(event.get("id"), str) else ""


def _validate(event):
    if not isinstance(event, dict):
        return "event must be a dict"
    if not isinstance(event.get("id"), str) or not _ID_PATTERN.match(event["id"]):
        return "event id must be 1-128 of A-Za-z0-9._:- (use new_event_id())"
    for key in ("token", "type", "at"):
        if not isinstance(event.get(key), str) or not event[key]:
            return "event %s must be a non-empty string" % key
    seq = event.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 0):
        return "event seq must be a non-negative integer"
    if "data" in event and not isinstance(event["data"], dict):
        return "event data must be a dict"
    return None
