"""The context block: hits in rank order, ready for a prompt, within a token budget."""
from __future__ import annotations

from datetime import datetime

from app.construction.boundaries import approx_tokens


def _day(v) -> str:
    if v is None:
        return "?"
    v = v.to_native() if hasattr(v, "to_native") else v
    return v.strftime("%Y-%m-%d") if isinstance(v, datetime) else str(v)


def _when(v) -> str:
    if v is None:
        return "?"
    v = v.to_native() if hasattr(v, "to_native") else v
    return v.strftime("%Y-%m-%d %H:%M") if isinstance(v, datetime) else str(v)


def headline(hit) -> str:
    n = hit.node
    if hit.kind == "fact":
        # The validity says whether it ended; "superseded" would also mark a value true today
        # whose successor begins later (a job held until next month's new one).
        until = _day(n.get("validTo")) if n.get("validTo") else "now"
        return f"[fact, valid {_day(n.get('validFrom'))} to {until}] {n.get('text')}"
    if hit.kind == "foresight":
        until = _day(n.get("validTo")) if n.get("validTo") else "open-ended"
        return f"[keep in mind: {n.get('kind')}, until {until}] {n.get('text')}"
    if hit.kind == "scene":
        consensus = "; ".join(line.lstrip("- ") for line in (n.get("consensus") or "").splitlines())
        return f"[scene: {n.get('topic')}, {n.get('cells')} episodes, {n.get('status')}] {consensus}"
    if hit.kind == "memcell":
        return (f"[episode {_day(n.get('startedAt'))}] {n.get('title')}: {n.get('summary')}")
    return f"[message {_when(n.get('at'))}] {n.get('speaker')}: {n.get('content')}"


def build_context(hits: list, token_budget: int | None) -> str:
    lines: list[str] = []
    used = 0
    for i, hit in enumerate(hits, start=1):
        block = [f"{i}. {headline(hit)}"]
        if hit.kind != "turn":
            block += [f"   - {_when(t.get('at'))} {t.get('speaker')}: {t.get('content')}"
                      for t in hit.evidence]
        text = "\n".join(block)
        cost = approx_tokens(text)
        if token_budget is not None and used + cost > token_budget:
            if not lines:  # always give the best hit, cut to fit
                lines.append(text[: token_budget * 4])
            break
        lines.append(text)
        used += cost
    return "\n".join(lines)
