"""Fusion over evidence: Reciprocal Rank Fusion, and hits packaged from learned turn scores.

HYBRID scores turns with the learned ranker (ranker.py) and packages hits with ranked(); the
single-channel methods, and HYBRID with ENGRAM_FUSION=rrf, use the RRF described here.

Channels rank different things (turns, facts, episodes, foresight) that are proved by the same
source turns. Fusing items directly would let a fact and the turn it came from compete for two
slots while neither gets credit for the other's channel. So RRF runs on the turns:

  rankings     each channel's hits, split by kind (a channel's facts and its turns are ranked
               on different scales), expanded to their evidence turns (an episode counts by its
               best turn);
  turn score   T(t) = sum over rankings r of w_channel * w_kind / (k + rank of t in r);
  replies      the turn after a scored turn gets `reply_boost` x its score: in a conversation
               the answer usually follows the question that matched the query (the reply of a
               turn a channel ranked as a turn, read by that channel's query);
  hit score    the best T over the hit's evidence; its evidence sorted by T;
  packaging    hits in score order; a hit whose evidence is all proved by a better hit is folded
               into that hit (its channels listed there, after the hit's own and marked
               `folded`: they ranked that other candidate, not the hit), so every hit brings new
               proof. (With the learned ranker's scores the evidence is also read in score order
               across hits: ranked(), _in_score_order.)

Ties are broken by the hit's own RRF score, then kind, then key: the same inputs always give
the same order. Ranks start at 1; k = 60 by default.

Depth: only the first `top` (20) candidates of each channel are fused first; deeper candidates
come after those hits, fused among themselves. With a dozen rankings, a turn found at rank 60
by five of them outscores the turn one channel put first, however small k is; cutting the
rankings keeps fusion about agreement among good candidates (measured on LoCoMo dev, k = 60:
evidence recall@10 0.611 fusing 100 candidates per channel, 0.684 fusing 20; R@50 unchanged,
0.831 against 0.833, thanks to the deeper second tier).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import islice

from app.recollection.channels.base import Candidate

KIND_ORDER = {"fact": 0, "foresight": 1, "memcell": 2, "scene": 3, "turn": 4}
REPLY_BOOST = 0.3
# An episode's ranking counts half: its proof is a guess (its turn closest to the query), where a
# fact's or a turn's is the thing itself (LoCoMo dev, fusion depth 20: R@10 0.684 at full weight,
# 0.690 at half, 0.697 without; half keeps what BM25 over episode summaries alone finds).
KIND_WEIGHT = {"memcell": 0.5}
PINNED_SLOT = 3  # ranked(): where a pinned channel's first candidate ranks at worst
# ranked(): where a weak candidate of a pinned channel ranks at worst (a constraint of whom the
# query names, below its trigger's bar): after the answers, still among the first hits.
WEAK_SLOT = 5


@dataclass
class ChannelScore:
    channel: str
    rank: int
    score: float
    contribution: float
    note: str = ""
    # What the channel ranked (memcell | fact | turn | foresight | scene): the hit itself, or,
    # when `folded`, another candidate proving the same turns that was folded into the hit (a
    # fact's source turn). Keyword-only and without a default: every maker of a line says it.
    ranked: str = field(kw_only=True)
    folded: bool = field(default=False, kw_only=True)


@dataclass
class Fused:
    kind: str
    key: str
    score: float = 0.0
    own: float = 0.0  # the hit's own RRF score (tie-breaker)
    channels: list[ChannelScore] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)

    @property
    def best_rank(self) -> int:
        return min(c.rank for c in self.channels)


def scoring_evidence(c: Candidate) -> tuple[str, ...]:
    # An episode or a scene counts by its best turn: its other turns are context, not proof.
    return c.evidence[:1] if c.kind in ("memcell", "scene") else c.evidence


def turn_scores(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int) -> dict[str, float]:
    scores: dict[str, float] = {}
    for channel, cands in rankings.items():
        w = weights.get(channel, 1.0)
        per_kind: dict[str, list[str]] = {}
        for c in cands:
            turns = per_kind.setdefault(c.kind, [])
            for t in scoring_evidence(c):
                if t not in turns:
                    turns.append(t)
        for kind, turns in per_kind.items():
            wk = w * KIND_WEIGHT.get(kind, 1.0)
            for rank, t in enumerate(turns, start=1):
                scores[t] = scores.get(t, 0.0) + wk / (k + rank)
    return scores


def replies(rankings: dict[str, list[Candidate]]) -> dict[str, str]:
    """Each ranked turn's reply, as the channel that ranked it read it (Candidate.reply): what
    fusion and the learned ranker read, in a search and when the ranker is fitted alike."""
    return {c.key: c.reply for cands in rankings.values() for c in cands if c.reply}


def speakers(rankings: dict[str, list[Candidate]]) -> dict[str, str]:
    """Who said each turn the channels brought (Candidate.speakers), when they read it."""
    return {t: s for cands in rankings.values() for c in cands for t, s in c.speakers}


def held_words(rankings: dict[str, list[Candidate]]) -> dict[str, tuple[str, ...]]:
    """The query's words each turn the channels brought holds (Candidate.holds), when any."""
    return {t: w for cands in rankings.values() for c in cands for t, w in c.holds}


def with_replies(scores: dict[str, float], next_of: dict[str, str],
                 boost: float = REPLY_BOOST) -> tuple[dict[str, float], dict[str, str]]:
    """Scores with each scored turn's reply boosted; also {reply: the turn that lifted it}."""
    out = dict(scores)
    lifted_by: dict[str, str] = {}
    for t, s in scores.items():
        nxt = next_of.get(t)
        if nxt:
            out[nxt] = out.get(nxt, 0.0) + boost * s
            if nxt not in scores and (nxt not in lifted_by or scores[lifted_by[nxt]] < s):
                lifted_by[nxt] = t
    return out, lifted_by


def fuse(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int,
         next_of: dict[str, str] | None, top: int, scores: dict[str, float] | None = None) -> list[Fused]:
    """RRF over each channel's first `top` candidates, then over all of them for the hits that
    bring proof the first tier did not (see Depth above). `scores`: turn_scores() of all the
    rankings, when the caller already has them."""
    short = {ch: cands[:top] for ch, cands in rankings.items()}
    first = rrf(short, weights, k, next_of)
    if all(len(c) <= top for c in rankings.values()):
        return first
    keys = {f.key for f in first}
    covered = {t for f in first for t in f.evidence}
    rest = [f for f in rrf(rankings, weights, k, next_of, scores)
            if f.key not in keys and any(t not in covered for t in f.evidence)]
    return first + rest


def rrf(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int = 60,
        next_of: dict[str, str] | None = None, scores: dict[str, float] | None = None) -> list[Fused]:
    """`scores`: turn_scores() of the same rankings, when the caller already has them."""
    items = _items(rankings, weights, k)
    T = scores if scores is not None else turn_scores(rankings, weights, k)
    if next_of:
        T, lifted_by = with_replies(T, next_of)
        # A reply no channel found becomes a hit of its own: the answer to a matching question.
        for reply, source in lifted_by.items():
            if reply not in items:
                items[reply] = _context_hit(reply, T[reply])
    # Evidence that no ranking supports (an episode's other turns) would only crowd out proof.
    return _package(items, T, lambda t: T.get(t, 0.0) > 0)


def ranked(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int,
           T: dict[str, float], proof_size: int, pinned: tuple[str, ...] = (),
           shares: dict[str, dict[str, float]] | None = None) -> list[Fused]:
    """Hits ordered by learned turn scores (ranker.py). A hit's proof is its turns among the
    search's `proof_size` best (its best turn when it has none there): an episode's other
    turns, or a fact's second source, would otherwise take the places of better turns found
    elsewhere (LoCoMo dev replayed, each conversation with weights fitted on the others: R@10
    0.745 with the best 20 turns as proof, 0.727 with every scored turn).

    `pinned` channels' first candidate ranks PINNED_SLOT-th at worst (_package):
    foresight is a plan or a constraint that must surface when its trigger matches ("suggest a
    restaurant" and a peanut allergy), whether or not it answers the question, and questions
    with known proof teach the ranker nothing about it.

    `shares`: each turn's score split by channel (Ranker.explain); a hit's channel lines then
    give what each channel added to its best turn's score instead of an RRF contribution."""
    items = _items(rankings, weights, k)
    best = sorted(T, key=lambda t: (-T[t], t))[:proof_size]
    covered = {t for item in items.values() for t in item.evidence}
    for t in best:
        if t not in covered:  # a reply read for a ranked turn, which no channel ranked itself
            items[t] = _context_hit(t, T[t])
    proof = set(best)
    keys = {c.key for ch in pinned for i, c in enumerate(rankings.get(ch, ()))
            if i == 0 and not c.weak and not c.free}
    # ... and whatever a channel pins (a second person's constraint; a fact asked after: the
    # graph channel's, asked_attribute.py).
    keys |= {c.key for cands in rankings.values() for c in cands if c.pin and not c.free}
    # The weak rank nothing for the ranker (ranker.source_lists): "Where does Maya live?" had
    # her allergy first. They still surface, at WEAK_SLOT at worst: "a carol service at 7pm in
    # December: can Walter come along?" needs his "no driving after dark".
    weak = {c.key for ch in pinned for c in rankings.get(ch, ()) if c.weak} - keys
    answers = list(dict.fromkeys(c.key for cands in rankings.values() for c in cands if c.answer))
    out = _answers_first(_package(items, T, proof.__contains__, keys, score_order=True, later=weak), answers)
    for hit in out if shares else ():
        share = shares.get(hit.evidence[0], {}) if hit.evidence else {}
        for c in hit.channels:
            if c.channel in rankings:
                c.contribution = share.get(c.channel, 0.0)
    return out


def _answers_first(out: list[Fused], answers: list[str]) -> list[Fused]:
    """The answers first, in their channels' order: the current value asked after ("What are
    we using for the event bus?": pinned third, below "let's talk about the event bus" and the
    scene of the old decision), the plans ahead soonest first ("What is coming up next week?")."""
    order = {k: i for i, k in enumerate(answers)}
    first = sorted((f for f in out if f.key in order), key=lambda f: order[f.key])
    if not first or [f.key for f in out[:len(first)]] == [f.key for f in first]:
        return out
    for f in first:
        f.score = max(f.score, out[0].score)
    return first + [f for f in out if f.key not in order]


def _context_hit(turn: str, score: float, why: str = "reply to a retrieved turn") -> Fused:
    """A turn no channel ranked itself, as a hit: `why` it is there."""
    line = ChannelScore("context", 1, score, score, why, ranked="turn")
    return Fused("turn", turn, score=score, evidence=[turn], channels=[line])


def _items(rankings: dict[str, list[Candidate]], weights: dict[str, float], k: int) -> dict[str, Fused]:
    """One Fused per candidate: its channels with their RRF contributions, its evidence."""
    items: dict[str, Fused] = {}
    for channel, cands in rankings.items():
        w = weights.get(channel, 1.0)
        for rank, c in enumerate(cands, start=1):
            item = items.setdefault(c.key, Fused(c.kind, c.key))
            contribution = w / (k + rank)
            item.own += contribution
            item.channels.append(ChannelScore(channel, rank, c.score, contribution, c.note, ranked=c.kind))
            for t in c.evidence:
                if t not in item.evidence:
                    item.evidence.append(t)
    return items


def _package(items: dict[str, Fused], T: dict[str, float], is_proof,
             pinned: frozenset[str] | set[str] = frozenset(), score_order: bool = False,
             later: frozenset[str] | set[str] = frozenset()) -> list[Fused]:
    """Hits by their best turn's score, each with its proving turns; a hit whose proof a better
    hit already brings is folded into it. A `pinned` hit not among the first PINNED_SLOT takes
    the last of those places (_pinned_up) and is never folded; a `later` one the same within
    WEAK_SLOT. `score_order`: the evidence is read in turn-score order across hits
    (_in_score_order)."""
    for item in items.values():
        item.evidence.sort(key=lambda t: -T.get(t, 0.0))
        kept = [t for t in item.evidence if is_proof(t)]
        item.evidence = kept or item.evidence[:1]
        item.score = max((T.get(t, 0.0) for t in item.evidence), default=item.own)
    ordered = _sorted(items.values(), pinned)
    split_from: dict[int, Fused] = {}
    if score_order:
        ordered, split_from = _in_score_order(ordered, items, T)
    if pinned:
        ordered = _pinned_up(ordered, pinned)
    if later:
        # Lifted, it may still fold into a better hit that holds its turn: surfaced already.
        ordered = _pinned_up(ordered, later, WEAK_SLOT, pinned)
    out: list[Fused] = []
    for item, into in _folding(ordered, pinned):
        if into is None:
            out.append(item)
        else:
            _vouch(into, item.channels)
    return _rejoined(out, split_from)


def _pinned_up(ordered: list[Fused], pinned: frozenset[str] | set[str], slot: int = PINNED_SLOT,
               kept: frozenset[str] | set[str] | None = None) -> list[Fused]:
    """Pinned hits not among the first `slot` hits (folded ones not counted; `kept`: the hits
    never folded, `pinned` unless said) take the last of those places, in their order, with
    that hit's score."""
    if not any(f.key in pinned for f in ordered):
        return ordered
    # Only the first `slot` unfolded hits are needed: stop folding there, not at the end.
    first = list(islice((f for f, into in _folding(ordered, pinned if kept is None else kept) if into is None),
                        slot))
    if len(first) < slot:
        return ordered
    placed = {f.key for f in first}
    lifted = [f for f in ordered if f.key in pinned and f.key not in placed]
    if not lifted:
        return ordered
    rest = [f for f in ordered if f.key not in pinned or f.key in placed]
    at = next(i for i, f in enumerate(rest) if f is first[-1])
    at += first[-1].key in pinned  # a pinned hit already in its place keeps it
    for f in lifted:
        f.score = max(f.score, first[-1].score)
    return rest[:at] + lifted + rest[at:]


def _vouch(hit: Fused, lines: list[ChannelScore]) -> None:
    """A folded hit's channels now vouch for `hit`, as folded lines; identical ones are shown once.
    An own line never hides a folded one: they say different things (what the channel thought of
    the hit, of something else). Copies: ranked() writes each hit's lines' contributions."""
    for c in lines:
        if all((c.channel, c.note) != (x.channel, x.note) for x in hit.channels if x.folded):
            hit.channels.append(replace(c, folded=True))


def _in_score_order(ordered: list[Fused], items: dict[str, Fused],
                    T: dict[str, float]) -> tuple[list[Fused], dict[int, Fused]]:
    """The hits with their evidence read in turn-score order: a hit's further turns stay with it
    only while no later hit's best turn outscores them; a turn that does not becomes a hit of its
    own at its own place (the turn's own hit, when a channel ranked it). With the learned ranker's
    scores (a turn's chance of proving the answer), an episode's second turn, twentieth of the
    search's turns, would otherwise come before the second best turn found elsewhere: LoCoMo dev,
    held out, HYBRID R@10 0.793 -> 0.801, R@5 0.693 -> 0.708 (three conversations up 1.6-2.1,
    two down 0.2 and 1.0). Not for RRF's scores, which give an episode's further turns nothing for
    the episode: there KEYWORD fell 0.706 -> 0.686 when read so. Also {id(split hit): the hit it
    came from}, for _rejoined."""
    rest = sorted(((T.get(t, 0.0), i, t) for i, h in enumerate(ordered) for t in h.evidence[1:]),
                  key=lambda x: (-x[0], x[1]))
    split_from: dict[int, Fused] = {}
    if not rest:
        return ordered, split_from
    for h in ordered:
        del h.evidence[1:]
    out: list[Fused] = []

    def place(score: float, owner: Fused, t: str) -> None:
        if out and out[-1] is owner:
            owner.evidence.append(t)
        elif (own := items.get(t)) is None or own.kind != "turn":
            hit = _context_hit(t, score, f"a further turn of a {owner.kind} ranked above")
            split_from[id(hit)] = owner
            out.append(hit)
        # else: the turn's own hit takes its place among `ordered`

    j = 0
    for i, h in enumerate(ordered):
        # A turn scoring above this hit's best goes first (on a tie, once its own hit is out).
        while j < len(rest) and (rest[j][0] > h.score or (rest[j][0] == h.score and rest[j][1] < i)):
            # A fact's or foresight's own best turn, a further turn of an episode above: it is
            # that hit's proof ("Maya moved to Berlin", not the second turn of the day's episode).
            # A scene keeps it: its consensus is what it adds (a hit of its own for it).
            owner = ordered[rest[j][1]]
            if not (rest[j][2] == h.evidence[0] and h.kind in ("fact", "foresight") and owner.kind == "memcell"):
                place(rest[j][0], owner, rest[j][2])
            j += 1
        out.append(h)
    for score, i, t in rest[j:]:
        place(score, ordered[i], t)
    return out, split_from


def _rejoined(hits: list[Fused], split_from: dict[int, Fused]) -> list[Fused]:
    """A split-off turn goes back to its hit when nothing came between them after folding."""
    out: list[Fused] = []
    for h in hits:
        owner = split_from.get(id(h))
        if owner is not None and out and out[-1] is owner:
            owner.evidence.extend(h.evidence)
            _vouch(owner, [c for c in h.channels if c.channel != "context"])
        else:
            out.append(h)
    return out


def _sorted(items, pinned) -> list[Fused]:
    return sorted(items, key=lambda f: (-f.score, f.key not in pinned, -f.own, KIND_ORDER.get(f.kind, 9), f.key))


def _folding(ordered: list[Fused], pinned: frozenset[str] | set[str] = frozenset()):
    """(hit, None) for a hit that brings proof no earlier hit brings, else (hit, the hit that
    brought its first turn). A `pinned` hit is never folded: what it holds (a constraint and
    its trigger) is what must surface, not only the turn that proves it."""
    owner: dict[str, Fused] = {}
    for item in ordered:
        if item.key not in pinned and item.evidence and all(t in owner for t in item.evidence):
            yield item, owner[item.evidence[0]]
            continue
        yield item, None
        for t in item.evidence:
            owner.setdefault(t, item)
