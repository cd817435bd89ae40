"""The learned turn ranker: how much each channel's ranking of a turn says that it proves the answer.

RRF adds 1/(k + rank) over rankings with hand-set weights. The ranker keeps its inputs (each
channel's ranking of each turn, split by kind, as in fusion.py) and learns their weights from
questions whose proving turns are known (LoCoMo-layout data, `engram eval locomo --fit-ranker`):

  sources      the (channel, kind) rankings below; in each, a candidate's scoring evidence (an
               episode's or a scene's best turn, a fact's or a turn's own) in rank order, first
               DEPTH distinct turns;
  features     per source: (k + 1) / (k + rank) for k in KS (a steep and a flat curve) and the
               candidate's score over the source's best score (how far behind the leader);
               the same for the turn before it, when a channel that ranked that turn read its
               reply (in a conversation the answer follows the question that matched, said by
               another speaker: a turn of the same speaker's goes on, it does not answer; not the
               ranks the turn before holds only as the reply of the one before it, which would
               credit a match two turns on), and
               for the turn after it, when a channel read it as its reply and it is ranked
               (a question is proved with its answer);
  speaker      two columns beside the sources: the query names the turn's speaker; the query
               names a speaker of the candidate turns, not this turn's (questions about a
               person are mostly proved by what that person said: on LoCoMo dev, 96% of the
               proving turns of a question naming one speaker are that speaker's);
  coverage     one column after them: how much of the query the turn and its reply hold, the
               idf of the query's words they hold (as BM25 reads words, the speaker's name
               included) over the idf of all of them. BM25 ranks a source's turns against each
               other, with its saturation and length norm; this reads the turns the channels
               rank as turns (keyword, vector, day: Candidate.holds), the ones only the vectors
               found too, against the query itself (a turn and reply holding all the rare words
               of the question); 0 for turns only a fact or an episode brought;
  model        a linear score, fitted pairwise (each question's proving turns against its other
               candidates, logistic loss on the differences, L2) and then calibrated, so that
               the score's logistic is the turn's probability of proving the answer (fit());
               Newton's method: the same data always gives the same weights.

Measured on LoCoMo dev (5 conversations, each ranked by weights fitted on the other four): the
README's Evaluation section and docs/evaluation-notes.md. The weights ship in ranker.json beside this file.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from app.recollection.channels.base import Candidate
from app.recollection.fusion import held_words, scoring_evidence, speakers
from app.recollection.speakers import named_speakers

SOURCES: tuple[tuple[str, str], ...] = (
    ("keyword", "turn"), ("keyword", "fact"), ("keyword", "memcell"),
    ("vector", "turn"), ("vector", "fact"),
    ("graph", "fact"), ("graph", "memcell"),
    ("scene", "scene"), ("foresight", "foresight"), ("day", "turn"),
)
KS = (5, 60)
DEPTH = 20
PER_SOURCE = len(KS) + 1
OWN = len(SOURCES) * PER_SOURCE
BLOCKS = ("own", "before", "after")  # the turn's own ranks, the turn before's, the turn after's
SPEAKER = ("named", "another_named")  # the speaker columns, after the blocks
SPEAKER_AT = len(BLOCKS) * OWN  # where they start
COVERAGE_AT = SPEAKER_AT + len(SPEAKER)  # the coverage column, after them
WIDTH = COVERAGE_AT + 2  # and the bias
DEFAULT_PATH = Path(__file__).with_name("ranker.json")
CHANNELS = tuple(dict.fromkeys(ch for ch, _ in SOURCES))
# Which columns are each channel's (in every block): a row's per-channel share of the log-odds.
_BY_CHANNEL = np.zeros((WIDTH, len(CHANNELS)))
for _si, (_ch, _) in enumerate(SOURCES):
    for _b in range(len(BLOCKS)):
        _start = _b * OWN + _si * PER_SOURCE
        _BY_CHANNEL[_start:_start + PER_SOURCE, CHANNELS.index(_ch)] = 1.0


class RankerFileError(ValueError):
    pass


def source_lists(rankings: dict[str, list[Candidate]]) -> dict[tuple[str, str], list[tuple[str, float, bool]]]:
    """Per (channel, kind): the first DEPTH distinct scoring-evidence turns (an episode's or a
    scene's best turn, as in RRF), with the score of the candidate that brought each and
    whether that rank is second-hand (Candidate.second_hand).

    A weak candidate ranks nothing: a constraint brought only because the query names its
    person, below its trigger's bar (channels/foresight.py), was the foresight channel's first
    and outranked the answer ("Where does Maya live?": her shellfish allergy first). It stays
    a hit, scored by what the other channels make of its turn."""
    out: dict[tuple[str, str], list[tuple[str, float, bool]]] = {}
    seen: dict[tuple[str, str], set[str]] = {}
    for channel, cands in rankings.items():
        for c in cands:
            if c.weak:
                continue
            key = (channel, c.kind)
            lst, got = out.setdefault(key, []), seen.setdefault(key, set())
            for t in scoring_evidence(c):
                if len(lst) < DEPTH and t not in got:
                    got.add(t)
                    lst.append((t, c.score, c.second_hand))
    return out


def features(rankings: dict[str, list[Candidate]], reply_of: dict[str, str],
             query: str = "", word_idf: dict[str, float] | None = None) -> tuple[list[str], np.ndarray]:
    """The candidate turns (every ranked turn, and the replies read for them) and their rows
    (`query`: for the speaker columns; `word_idf`, the query's words' idf over the tenant's
    turns, SearchContext.word_idf: for the coverage column, left at 0 without it)."""
    lists = source_lists(rankings)
    own: dict[str, np.ndarray] = {}
    borrowed: dict[str, list[int]] = {}  # a turn's sources whose rank is second-hand
    for si, source in enumerate(SOURCES):
        lst = lists.get(source)
        if not lst:
            continue
        top = max(abs(s) for _, s, _ in lst) or 1.0
        base = si * PER_SOURCE
        for rank, (t, score, second_hand) in enumerate(lst, start=1):
            row = own.get(t)
            if row is None:
                row = own[t] = np.zeros(OWN)
            for j, k in enumerate(KS):
                row[base + j] = (k + 1) / (k + rank)
            row[base + len(KS)] = score / top
            if second_hand:
                borrowed.setdefault(t, []).append(base)
    said = speakers(rankings)

    def replies_to(t: str | None, prev: str) -> bool:
        # A turn by the same speaker goes on, it does not answer: "I live in a flat in Hackney"
        # lent its match to "One thing you should know: I'm lactose intolerant", said next.
        return t is not None and not (said.get(t) and said.get(t) == said.get(prev))

    before = {reply: t for t, reply in reply_of.items() if t in own and replies_to(reply, t)}
    turns = list(own) + [r for r in before if r not in own]
    X = np.zeros((len(turns), WIDTH))
    for i, t in enumerate(turns):
        if t in own:
            X[i, :OWN] = own[t]
            after = reply_of.get(t)
            if after in own and replies_to(after, t):
                X[i, 2 * OWN:3 * OWN] = own[after]
        if t in before:
            X[i, OWN:2 * OWN] = own[before[t]]
            for base in borrowed.get(before[t], ()):
                X[i, OWN + base:OWN + base + PER_SOURCE] = 0.0
    named = named_speakers(said, query)
    if named:
        for i, t in enumerate(turns):
            if t in said:
                X[i, SPEAKER_AT + (0 if said[t] in named else 1)] = 1.0
    total = sum(word_idf.values()) if word_idf else 0.0
    if total > 0:
        held = held_words(rankings)
        for i, t in enumerate(turns):
            words = set(held.get(t, ())) | set(held.get(reply_of.get(t), ()))
            X[i, COVERAGE_AT] = sum(word_idf.get(w, 0.0) for w in words) / total
    X[:, -1] = 1.0
    return turns, X


@dataclass
class Ranker:
    weights: np.ndarray
    meta: dict = field(default_factory=dict)

    def scores(self, rankings: dict[str, list[Candidate]], reply_of: dict[str, str],
               query: str = "", word_idf: dict[str, float] | None = None) -> dict[str, float]:
        """Each candidate turn's probability of proving the answer, by the model."""
        return self.explain(rankings, reply_of, query, word_idf)[0]

    def explain(self, rankings: dict[str, list[Candidate]], reply_of: dict[str, str],
                query: str = "", word_idf: dict[str, float] | None = None,
                ) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
        """scores(), and each turn's log-odds split by channel (what each channel's rankings of
        the turn, of the turn before and of the turn after added; the speaker and coverage
        columns and the bias are the rest)."""
        turns, X = features(rankings, reply_of, query, word_idf)
        if not turns:
            return {}, {}
        weighted = X * self.weights
        p = 1.0 / (1.0 + np.exp(-weighted.sum(axis=1)))
        shares = weighted @ _BY_CHANNEL
        return (dict(zip(turns, p.tolist())),
                {t: {ch: float(v) for ch, v in zip(CHANNELS, row) if v} for t, row in zip(turns, shares)})

    def save(self, path: Path) -> None:
        """Weights by source, readable: per source, for the turn itself, the turn before it and
        the turn after it, the weights of [(k+1)/(k+rank) for k in ks..., score / best score]."""
        w = [round(float(x), 6) for x in self.weights]
        table = {f"{ch}/{kind}": {block: w[b * OWN + si * PER_SOURCE:b * OWN + (si + 1) * PER_SOURCE]
                                  for b, block in enumerate(BLOCKS)}
                 for si, (ch, kind) in enumerate(SOURCES)}
        head = {"ks": KS, "depth": DEPTH, **self.meta, "bias": w[-1],
                "speaker": dict(zip(SPEAKER, w[SPEAKER_AT:SPEAKER_AT + len(SPEAKER)])),
                "coverage": w[COVERAGE_AT]}
        lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
        rows = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in table.items())
        path.write_text("{\n" + "\n".join(lines) + '\n "weights": {\n' + rows + "\n }\n}\n")

    @classmethod
    def load(cls, path: Path = DEFAULT_PATH) -> "Ranker":
        try:
            data = json.loads(Path(path).read_text())
            # Weights fitted for other features would weigh the wrong columns, silently.
            if tuple(data["ks"]) != KS or data["depth"] != DEPTH:
                raise ValueError(f"fitted for ks {data['ks']} and depth {data['depth']}, "
                                 f"not {list(KS)} and {DEPTH}")
            table = data["weights"]
            if set(table) != {f"{ch}/{kind}" for ch, kind in SOURCES}:
                raise ValueError(f"fitted for sources {sorted(table)}")
            w = np.zeros(WIDTH)
            for si, (ch, kind) in enumerate(SOURCES):
                row = table[f"{ch}/{kind}"]
                for b, block in enumerate(BLOCKS):
                    w[b * OWN + si * PER_SOURCE:b * OWN + (si + 1) * PER_SOURCE] = row[block]
            if set(data["speaker"]) != set(SPEAKER):
                raise ValueError(f"fitted for speaker columns {sorted(data['speaker'])}")
            w[SPEAKER_AT:SPEAKER_AT + len(SPEAKER)] = [float(data["speaker"][c]) for c in SPEAKER]
            w[COVERAGE_AT] = float(data["coverage"])
            w[-1] = float(data["bias"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise RankerFileError(f"cannot use the ranker's weights in {path}: {e} "
                                  "(fit them again: engram eval locomo --fit-ranker)") from e
        meta = {k: v for k, v in data.items() if k not in ("ks", "depth", "bias", "speaker", "coverage", "weights")}
        return cls(w, meta)


def fit(rows: list[tuple[np.ndarray, np.ndarray]], l2: float = 1e-3, iterations: int = 30) -> np.ndarray:
    """Weights from (X, y) blocks, one per question: pairwise, then calibrated.

    Pairwise (RankNet): within each question, every proving turn against every other candidate,
    a logistic regression on the difference of their rows. A search needs a question's proving
    turns above its other turns; a pointwise fit over all questions at once (the first model
    here) also spends weight on telling apart turns of different questions, which never
    compete. LoCoMo dev, each conversation ranked by weights fitted on the other four: R@10
    0.764 -> 0.776, R@5 0.664 -> 0.680, R@25 0.855 -> 0.859, every conversation up (+0.3 to +2.5).
    Differences carry no bias; calibrate() then gives the scores a scale and a bias, so a
    turn's score is again its probability of proving the answer (the order is the pairwise one).
    L2 per pair, the bias not penalised; Newton's method: the same data gives the same weights."""
    pairs = [(X[y > 0][:, None, :] - X[y == 0][None, :, :]).reshape(-1, X.shape[1])
             for X, y in rows if 0 < y.sum() < len(y)]
    if not pairs:
        raise ValueError("fitting needs turns that prove an answer and turns that do not")
    D = np.vstack(pairs)
    penalty = np.full(D.shape[1], l2 * len(D))
    penalty[-1] = 0.0
    # Every difference is (proving - other): label 1.
    w = _logistic(D, np.ones(len(D)), penalty, iterations, tol=1e-8)
    return calibrate(w, rows)


def calibrate(w: np.ndarray, rows: list[tuple[np.ndarray, np.ndarray]], iterations: int = 50) -> np.ndarray:
    """w scaled by a > 0 and its bias moved by b, with (a, b) fitted by logistic regression of
    the turns' labels on their scores X @ w (Platt scaling): probabilities, the same order."""
    s = np.concatenate([X @ w for X, _ in rows])
    y = np.concatenate([t for _, t in rows]).astype(float)
    ab = _logistic(np.column_stack([s, np.ones_like(s)]), y, np.zeros(2), iterations, tol=1e-10)
    if ab[0] <= 0:  # scores that do not rank proof higher: nothing to calibrate
        raise ValueError("fitted scores do not rank proving turns higher: cannot calibrate")
    out = w * ab[0]
    out[-1] += ab[1]
    return out


def _logistic(X: np.ndarray, y: np.ndarray, penalty: np.ndarray, iterations: int, tol: float) -> np.ndarray:
    """Weights of a logistic regression of y on X with an L2 `penalty` per column, by Newton's
    method from zero (deterministic), until no weight moves by `tol`."""
    w = np.zeros(X.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        grad = X.T @ (p - y) + penalty * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(penalty) + 1e-9 * np.eye(X.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < tol:
            break
    return w
