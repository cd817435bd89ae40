"""The context block: hits in rank order, ready for a prompt, within a token budget."""
from __future__ import annotations

from datetime import datetime


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
    # A later hit says another amount of the same thing (newer_values.py): a reader must not take
    # this one's for the last word, whatever its validity says.
    later = f"; another value said later: hit {hit.revised_by.rank}" if hit.revised_by is not None else ""
    if hit.kind == "fact":
        if n.get("status") == "retracted":  # (only in a search that includes everything)
            return f"[fact, said in error, taken back {_when(n.get('validTo'))}] {n.get('text')}"
        # The validity says whether it ended; "superseded" would also mark a value true today
        # whose successor begins later (a job held until next month's new one).
        until = _day(n.get("validTo")) if n.get("validTo") else "now"
        return f"[fact, valid {_day(n.get('validFrom'))} to {until}{later}] {n.get('text')}"
    if hit.kind == "foresight":
        until = f"until {_day(n.get('validTo'))}" if n.get("validTo") else "no end date"
        return f"[keep in mind: {n.get('kind')}, {until}] {n.get('text')}"
    if hit.kind == "scene":
        consensus = "; ".join(line.lstrip("- ") for line in (n.get("consensus") or "").splitlines())
        return f"[scene: {n.get('topic')}, {n.get('cells')} episodes, {n.get('status')}] {consensus}"
    if hit.kind == "memcell":
        return (f"[episode {_day(n.get('startedAt'))}] {n.get('title')}: {n.get('summary')}")
    slip = "; taken back by a correction after it" if n.get("slip") else ""
    return f"[message {_when(n.get('at'))}{later}{slip}] {n.get('speaker')}: {n.get('content')}"


def build_context(hits: list, token_budget: int | None) -> str:
    """Each hit with its source turns, in rank order. Within `token_budget`: a hit whose turns
    do not fit comes without them, and one that does not fit even so is left out while the
    later ones are still tried; a one-line constraint ranked after a long episode must not be
    lost to it, so the standing constraints' lines are kept room for first (at 64 tokens the
    block was the assistant's own earlier suggestion, and no allergy). The best hit is always
    given, cut at a word to fit."""
    lines: list[str] = []
    used = 0
    # A search of several groups (none given) says whose each hit is: two teams' Jun, each
    # "moved to the ... office", were one Jun in two places.
    groups = {hit.node.get("groupId") for hit in hits} - {None}
    heads = [f"{i}. " + (f"(group {hit.node.get('groupId')}) " if len(groups) > 1 and hit.node.get("groupId")
                         else "") + headline(hit) for i, hit in enumerate(hits, start=1)]
    standing = [i for i, hit in enumerate(hits) if _standing(hit)]
    held = sum(_tokens(heads[i]) for i in standing) if token_budget is not None else 0
    if token_budget is not None and held > token_budget // 2:
        held = 0  # more than half the budget: they compete with the rest, in rank order
    for i, hit in enumerate(hits):
        head = heads[i]
        if i in standing and held:
            held -= _tokens(head)
        block = [head]
        if hit.kind != "turn":
            block += [f"   - {_when(t.get('at'))} {t.get('speaker')}: {t.get('content')}"
                      for t in hit.evidence]
        for text in dict.fromkeys(("\n".join(block), head)):
            cost = _tokens(text)
            if token_budget is None or used + cost + held <= token_budget:
                lines.append(text)
                used += cost
                break
        else:
            if not lines:
                text = _cut(head, token_budget - held)
                lines.append(text)
                used += _tokens(text)
    return "\n".join(lines)


def _standing(hit) -> bool:
    return hit.kind == "foresight" and hit.node.get("kind") == "constraint"


def _tokens(line: str) -> int:
    """A line's tokens with its newline, rounded up (approx_tokens' ~4 characters a token), so
    the block's characters stay within 4 x the budget however many lines it has."""
    return -(-(len(line) + 1) // 4)


def _cut(text: str, token_budget: int) -> str:
    """`text` cut at a word to about `token_budget` tokens (approx_tokens: ~4 characters each)."""
    room = max(token_budget * 4 - 1, 1)
    if len(text) <= room:
        return text
    cut = text[:room]
    space = cut.rfind(" ")
    return (cut[:space] if space > room // 2 else cut).rstrip(" ,;:") + "…"
