"""Prometheus text metrics: requests and latency per GraphQL operation, ingestion backlog."""
from __future__ import annotations

import threading
from collections import defaultdict

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.08, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


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

    def render(self, pending_turns: int | None, queued_calls: int = 0) -> str:
        lines = ["# HELP engram_requests_total GraphQL requests by operation and outcome",
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
        if pending_turns is not None:
            lines += ["# HELP engram_pending_turns Turns waiting to be processed (all tenants)",
                      "# TYPE engram_pending_turns gauge", f"engram_pending_turns {pending_turns}"]
        return "\n".join(lines) + "\n"
