"""Prometheus text metrics: requests and latency per GraphQL operation and outcome, the
ingestion backlog, and whether Neo4j answers."""
from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.08, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


# The codes an outcome may be (errors.py): anything else counts as INTERNAL, so no client can
# grow the label set.
CODES = frozenset({"BAD_USER_INPUT", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "INTERNAL", "UNAVAILABLE"})


def outcome(errors) -> str:
    """A request's `status` label: ok, or the code of its first error (an operator tells a
    client's BAD_USER_INPUT from the server's INTERNAL and a database outage's UNAVAILABLE)."""
    if not errors:
        return "ok"
    code = (getattr(errors[0], "extensions", None) or {}).get("code")
    return code if code in CODES else "INTERNAL"


@dataclass(frozen=True)
class Backlog:
    pending: int  # turns waiting, all tenants
    failed: int  # of those, whose last attempt failed
    oldest_s: float  # how long the oldest has waited


class Metrics:
    def __init__(self):
        self._lock = threading.Lock()
        self.count: dict[tuple[str, str], int] = defaultdict(int)
        self.hist: dict[str, list[int]] = defaultdict(lambda: [0] * (len(BUCKETS) + 1))
        self.total: dict[str, float] = defaultdict(float)

    def observe(self, operation: str, status: str, seconds: float) -> None:
        with self._lock:
            self.count[(operation, status)] += 1
            self.total[operation] += seconds
            h = self.hist[operation]
            for i, b in enumerate(BUCKETS):
                if seconds <= b:
                    h[i] += 1
            h[-1] += 1

    def render(self, backlog: Backlog | None, queued_calls: int = 0) -> str:
        """`backlog`: None when Neo4j did not answer (engram_neo4j_up 0)."""
        lines = ["# HELP engram_requests_total GraphQL requests by operation and outcome (ok or the error's "
                 "code; requests refused before any operation ran, such as those without a valid key, "
                 "under operation \"none\")",
                 "# TYPE engram_requests_total counter"]
        with self._lock:
            for (op, status), n in sorted(self.count.items()):
                lines.append(f'engram_requests_total{{operation="{op}",status="{status}"}} {n}')
            lines += ["# HELP engram_request_seconds GraphQL request latency by operation",
                      "# TYPE engram_request_seconds histogram"]
            for op, h in sorted(self.hist.items()):
                for i, b in enumerate(BUCKETS):
                    lines.append(f'engram_request_seconds_bucket{{operation="{op}",le="{b}"}} {h[i]}')
                lines.append(f'engram_request_seconds_bucket{{operation="{op}",le="+Inf"}} {h[-1]}')
                lines.append(f'engram_request_seconds_sum{{operation="{op}"}} {self.total[op]:.6f}')
                lines.append(f'engram_request_seconds_count{{operation="{op}"}} {h[-1]}')
        lines += ["# HELP engram_ingest_queue_calls memorize calls handed to background processing, not yet done",
                  "# TYPE engram_ingest_queue_calls gauge", f"engram_ingest_queue_calls {queued_calls}"]
        lines += ["# HELP engram_neo4j_up Whether Neo4j answered this scrape's backlog query",
                  "# TYPE engram_neo4j_up gauge", f"engram_neo4j_up {int(backlog is not None)}"]
        if backlog is not None:
            lines += ["# HELP engram_pending_turns Turns waiting to be processed (all tenants)",
                      "# TYPE engram_pending_turns gauge", f"engram_pending_turns {backlog.pending}",
                      "# HELP engram_failed_turns Of the turns waiting, those whose last attempt failed (retried)",
                      "# TYPE engram_failed_turns gauge", f"engram_failed_turns {backlog.failed}",
                      "# HELP engram_oldest_pending_turn_seconds How long the oldest waiting turn has waited",
                      "# TYPE engram_oldest_pending_turn_seconds gauge",
                      f"engram_oldest_pending_turn_seconds {backlog.oldest_s:.1f}"]
        return "\n".join(lines) + "\n"
