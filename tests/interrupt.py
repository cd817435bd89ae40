"""A step of a multi-transaction operation made to fail, as if the process were killed there:
what the transactions before it committed stays, nothing after it runs."""
from __future__ import annotations


class Killed(RuntimeError):
    pass


def kill_at(monkeypatch, graph, method: str, query: str, nth: int = 1) -> None:
    """The `nth` call of graph.<method> (write, auto_commit, ...) with `query` raises Killed
    instead of running; later calls run again (the operation run a second time)."""
    real = getattr(graph, method)
    seen = 0

    async def step(q, **params):
        nonlocal seen
        if q is query:
            seen += 1
            if seen == nth:
                raise Killed(f"killed at call {nth} of this step")
        return await real(q, **params)

    monkeypatch.setattr(graph, method, step)
