"""Pending turns -> MemCells with facts, entities and foresight, written in batches.

Embedding budget: every turn is embedded once (the unavoidable cost); a MemCell's vector is the
normalised mean of its turns'; a fact reuses its turn's vector when it is the turn's only fact;
only new entity names and foresight triggers are embedded besides.

Order of work in one call, so the model (one core) and Neo4j (the other) run side by side:
turns are embedded (in memorize, while they are being written), then every closed cell is
extracted; the names that may need a vector are embedded, and the fact and foresight texts of
all cells go to the model in one background call while the first cell is resolved against the
graph and its rows are prepared; each cell is written as soon as its vectors are there.
"""
from __future__ import annotations

import asyncio
import time
from functools import lru_cache
from dataclasses import dataclass, field

import numpy as np

from app.construction.boundaries import BoundaryRules, cut, unit
from app.construction.entity_resolution import (
    Resolution, entity_rows, names_to_embed, normalize_key, resolve_entities, surface_rows, thing_key, timeline_key,
)
from app.construction.extractor import ExtractionError, Extractor
from app.construction.sentences import best_span
from app.construction.known_names import known_names, with_new
from app.construction.turns import pack_sentences, pending_turns, save_embeddings
from app.construction.vectors import TextVectors, settle
from app.construction.writer import (FACT_VECTORS, Batch, ResolutionStale, TurnsTaken, mark_failed,
                                     write_batch)
from app.domain.models import ASSISTANT_ROLES, CellDraft, EntityDraft, Extraction, new_id
from app.embeddings import Embedder
from app.settings import Settings
from app.store import term_stats
from app.store.driver import error_text
from app.store.graph import TenantGraph


@dataclass
class ProcessReport:
    cells: int = 0
    facts: int = 0
    entities: int = 0
    foresights: int = 0
    foresights_ended: int = 0  # by a later statement that they no longer hold
    superseded: int = 0
    pending: int = 0  # turns left pending (open cell, or failed extraction)
    failed_cells: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    tokens_used: int = 0
    queued: bool = False  # handed to the conversation's worker, not waited for

    def add_time(self, stage: str, dt: float) -> None:
        self.seconds[stage] = self.seconds.get(stage, 0.0) + dt


def make_extractor(settings: Settings) -> Extractor:
    if settings.extractor == "llm":
        from app.construction.extract_llm import LLMExtractor

        return LLMExtractor(settings)
    from app.construction.local import LocalExtractor

    return LocalExtractor()


def turn_text(speaker: str, at, content: str) -> str:
    """What a turn's vector is made from: who said it and when, then what was said. Questions
    name people and times ("When did Maya ..."); raw turns say "I" and "yesterday", so the
    speaker and day are part of the text embedded (measured: dense recall@10 on LoCoMo dev
    0.25 -> 0.53 against the raw text)."""
    return f"{speaker} ({at:%d %B %Y}): {content}"


def embedding_text(turn) -> str:
    return turn_text(turn.speaker, turn.at, turn.content)


def foresight_embedding_text(text: str, trigger: str | None) -> str:
    """What a foresight's vector is made from: its trigger, the situations where it matters.
    Its text names whom it is about ("Joanna is lactose intolerant"), and with the name in the
    vector any question about that person came near it (on LoCoMo 228 of 760 questions brought
    one of 7 standing constraints near, nearly all by the name alone; by the trigger, 31, each
    about food or pets). The text only when there is no trigger."""
    return (trigger or "").strip() or text


def turn_texts(said: list[tuple[str, object, str]]) -> tuple[list[str], list[int]]:
    """For each (speaker, at, content): the text for the model, and where its content starts
    (after who and when)."""
    texts = [turn_text(speaker, at, content) for speaker, at, content in said]
    return texts, [len(x) - len(content) for x, (_, _, content) in zip(texts, said)]


def _vec(v: np.ndarray | None) -> list[float] | None:
    return None if v is None else v.tolist()


# Times a cell is resolved and written when entity edits keep coming in between (ResolutionStale).
_RESOLVE_ATTEMPTS = 3
# Things a saying names together that are related to the first of them (a long list relates little).
MAX_SAID_WITH = 3


@dataclass
class _Work:
    """A closed cell with its extraction, on its way to the graph."""
    cell: CellDraft
    reason: str
    ex: Extraction
    drafts: list[EntityDraft]
    own: list  # facts that get a vector of their own text


class Pipeline:
    def __init__(self, settings: Settings, embedder: Embedder, extractor: Extractor | None = None):
        self.settings = settings
        self.embedder = embedder
        self.extractor = extractor or make_extractor(settings)
        self.rules = BoundaryRules(
            max_turns=settings.boundary_max_turns, max_tokens=settings.boundary_max_tokens,
            gap_hours=settings.boundary_gap_hours, topic_threshold=settings.boundary_topic_threshold,
            window=settings.boundary_window,
        )

    async def process(self, graph: TenantGraph, conversation_id: str, flush: bool,
                      vectors: TextVectors | None = None, upto_seq: int | None = None) -> ProcessReport:
        """`vectors` may already hold the turns' vectors (memorize embeds them while it writes).
        `upto_seq`: leave later turns for a later call (they may still be being embedded)."""
        rep = ProcessReport()
        t0 = time.perf_counter()
        turns, known, known_sentences = await pending_turns(graph, conversation_id, upto_seq)
        rep.add_time("read", time.perf_counter() - t0)
        if not turns:
            return rep
        # The conversation's group's entities: resolution and the write read and make those only.
        group = graph.in_group(turns[0].group_id)
        t0 = time.perf_counter()
        cache = vectors or TextVectors(self.embedder)
        texts, heads = turn_texts([(t.speaker, t.at, t.content) for t in turns])
        for text, v, sents in zip(texts, known, known_sentences):
            if v is not None:
                cache.put(text, np.asarray(v, dtype=np.float32))
            if sents is not None:
                cache.put_sentences(text, sents)
        new = {t.id for t, v in zip(turns, known) if v is None}
        by_sentence = self.settings.fact_vectors == "sentence"
        await cache.fill(texts, heads if by_sentence else None)
        vec_of = {t.id: cache.get(text) for t, text in zip(turns, texts)}
        # turn id -> (content, head, its sentences' vectors), for turns that have sentences
        sentences_of = {t.id: (t.content, head, sents) for t, text, head in zip(turns, texts, heads)
                        if by_sentence and (sents := cache.sentences(text))}
        kept = {t.id for t, s in zip(turns, known_sentences) if s is not None}
        rep.add_time("embed", time.perf_counter() - t0)
        cells = cut(turns, np.stack([vec_of[t.id] for t in turns]), self.rules, flush)

        # The open tail keeps its new vectors, so it is embedded once; written while we extract.
        tail = [t for c, _ in cells if not c.closed for t in c.turns]
        rep.pending += len(tail)
        saving = asyncio.create_task(save_embeddings(graph, conversation_id, [
            {"id": t.id, "embedding": _vec(vec_of[t.id]),
             **pack_sentences((sentences_of.get(t.id) or (None, None, None))[2])}
            for t in tail if t.id in new or (t.id in sentences_of and t.id not in kept)]))
        work: list[_Work] = []
        failed: tuple[int, str] | None = None
        seen = None  # the conversation's names, and each cell's for the next (known_names.py)
        for i, (cell, reason) in enumerate(cells):
            if not cell.closed:
                continue
            t0 = time.perf_counter()
            try:
                if seen is None:
                    seen = await known_names(graph, conversation_id)
                ex = await self.extractor.extract(cell.turns, known=seen)
                seen = with_new(seen, ex.entities)
            except Exception as e:  # noqa: BLE001 - any failure: the turns wait, with the error
                # An unexpected error too (a reply the extractor could not take apart): left
                # unrecorded, the turns would wait with nothing for the retry to find.
                rep.add_time("extract", time.perf_counter() - t0)
                failed = (i, str(e) if isinstance(e, ExtractionError) else error_text(e))
                break
            rep.add_time("extract", time.perf_counter() - t0)
            rep.tokens_used += ex.tokens_used
            work.append(_Work(cell, reason, ex, self._drafts(cell, ex),
                              self._own_facts(ex, vec_of, sentences_of)))

        big = None
        try:
            t0 = time.perf_counter()
            names = await names_to_embed(group, [d for w in work for d in w.drafts])
            rep.add_time("resolve", time.perf_counter() - t0)
            t0 = time.perf_counter()
            await cache.fill(names)
            # Facts and foresight of every cell in one call, computed while the graph work goes on.
            big = cache.start([f.text for w in work for f in w.own]
                              + [foresight_embedding_text(fs.text, fs.trigger)
                                 for w in work for fs in w.ex.foresights])
            rep.add_time("embed", time.perf_counter() - t0)
            for w in work:
                try:
                    await self._write_cell(group, w, vec_of, sentences_of, cache, big, saving, rep)
                except TurnsTaken as e:
                    # Forgotten or processed elsewhere meanwhile: this cell is not written; each
                    # later one is claimed on its own (forgetting a user leaves the others' turns).
                    rep.errors.append(str(e))
                except Exception as e:  # noqa: BLE001 - the cell and the later ones wait, recorded
                    # Not written (its transaction went back whole): it and the later cells wait
                    # for the retry, in order, as after a failed extraction.
                    failed = (next(i for i, (c, _) in enumerate(cells) if c is w.cell),
                              f"writing the episode failed: {error_text(e)}")
                    break
        finally:
            await settle(big)
            await settle(saving)
        await saving  # an error saving the tail's vectors is reported, not swallowed
        # Only the open tail's turns are needed again (their vectors are also in the graph).
        open_ids = {t.id for t in tail}
        cache.drop([x for t, x in zip(turns, texts) if t.id not in open_ids])
        if failed is not None:
            # The turns stay pending with the error recorded; a retry picks them up. Later
            # cells wait too, so facts are always applied in conversation order.
            i, error = failed
            rest = [t.id for c, _ in cells[i:] for t in c.turns]
            await mark_failed(graph, conversation_id, rest, error)
            rep.failed_cells += 1
            rep.pending += len([t for c, _ in cells[i:] if c.closed for t in c.turns])
            rep.errors.append(error)
        return rep

    @staticmethod
    def _drafts(cell: CellDraft, ex: Extraction) -> list[EntityDraft]:
        drafts = list(ex.entities)
        named = {normalize_key(d.name) for d in drafts}
        for s in sorted({t.speaker for t in cell.turns}):
            # "Marta" who said she is Marta Silva is that person (the extractor's own name for
            # her), not whoever else "Marta" names.
            told_full = (any(d.name.startswith(s + " ") for d in drafts)
                         and not any(f.subject == s for f in ex.facts))
            if normalize_key(s) not in named and not told_full:
                drafts.append(EntityDraft(name=s, type="person"))
        return drafts

    def _own_facts(self, ex: Extraction, vec_of: dict[str, np.ndarray], sentences_of: dict) -> list:
        if self.settings.fact_vectors == "sentence":
            return [f for f in ex.facts if not (f.turn_ids and f.turn_ids[0] in sentences_of)
                    or _told_elsewhere(f.text, sentences_of[f.turn_ids[0]][0])]
        if self.settings.fact_vectors == "turn":
            return [f for f in ex.facts if not (f.turn_ids and f.turn_ids[0] in vec_of)]
        facts_per_turn: dict[str, int] = {}
        for f in ex.facts:
            for tid in f.turn_ids[:1]:
                facts_per_turn[tid] = facts_per_turn.get(tid, 0) + 1
        return [f for f in ex.facts
                if not (f.turn_ids and f.turn_ids[0] in vec_of and facts_per_turn.get(f.turn_ids[0]) == 1)]

    async def _write_cell(self, graph: TenantGraph, w: _Work, vec_of: dict[str, np.ndarray],
                          sentences_of: dict, cache: TextVectors, big: asyncio.Task, saving: asyncio.Task,
                          rep: ProcessReport) -> None:
        speakers = frozenset(normalize_key(t.speaker) for t in w.cell.turns)
        for attempt in range(_RESOLVE_ATTEMPTS):
            t0 = time.perf_counter()
            res: Resolution = await resolve_entities(graph, w.drafts, cache.embed, speakers)
            rep.add_time("resolve", time.perf_counter() - t0)
            batch = await self._batch(w, res, vec_of, sentences_of, cache, big, rep)
            t0 = time.perf_counter()
            await saving  # the tail's vectors first: two writes of one call never run side by side
            try:
                await write_batch(graph, batch)
            except ResolutionStale:
                # An entity edit came between resolving and writing; resolved again, it is
                # written as the graph is now. Lost every time, the cell waits for a retry.
                if attempt == _RESOLVE_ATTEMPTS - 1:
                    raise
                continue
            finally:
                rep.add_time("write", time.perf_counter() - t0)
            break
        if batch.retold:  # a value the writer told anew ("..., Tom Ashby's replacement") is found by its words
            retold = set(batch.retold)
            told = {f["id"]: f["text"] for f in batch.facts if f["id"] in retold}
            vectors = await cache.embed(list(told.values()))
            await graph.write(FACT_VECTORS, rows=[{"id": i, "embedding": _vec(v)} for i, v in zip(told, vectors)])
        rep.cells += 1
        rep.facts += len(batch.facts)
        rep.entities += sum(1 for e in res.entities.values() if e.is_new)
        rep.foresights += len(batch.foresights)
        rep.foresights_ended += batch.ended
        rep.superseded += len(batch.supersede)

    async def _batch(self, w: _Work, res: Resolution, vec_of: dict[str, np.ndarray], sentences_of: dict,
                     cache: TextVectors, big: asyncio.Task, rep: ProcessReport) -> Batch:
        """The rows of one cell, its names resolved as `res` says."""
        cell, reason, ex = w.cell, w.reason, w.ex
        first = cell.turns[0]
        cell_id = new_id("mc")
        speakers = {t.speaker for t in cell.turns}
        # The assistant is no relation in the user's life: "Daniel has some changes to tell
        # Assistant about" made it Daniel's closest in relatedTo. Its facts stay; no edge to it.
        assistants = {res.key_of(t.speaker) or normalize_key(t.speaker) for t in cell.turns
                      if t.role in ASSISTANT_ROLES}
        t0 = time.perf_counter()
        own = {id(f) for f in w.own}
        later: list[tuple[dict, str]] = []  # rows whose vector the background call brings
        turn_ids = {t.id for t in cell.turns}
        cell_vec = unit(np.mean([vec_of[t.id] for t in cell.turns], axis=0))
        batch = Batch()
        batch.cells.append({
            "id": cell_id, "conversationId": first.conversation_id, "groupId": first.group_id,
            "userIds": sorted({t.user_id for t in cell.turns if t.user_id}),
            "title": ex.title, "summary": ex.summary, "keywords": ex.keywords,
            "keywordText": " ".join(ex.keywords), "importance": float(ex.importance),
            "startedAt": cell.started_at, "endedAt": cell.ended_at, "embedding": _vec(cell_vec),
            "extractor": self.extractor.name, "tokensUsed": ex.tokens_used, "boundary": reason,
            "turns": [{"id": t.id, "embedding": _vec(vec_of[t.id])} for t in cell.turns],
        })
        ent_rows = entity_rows(res)
        for row in ent_rows:
            row["id"] = new_id("ent")
        batch.entities = ent_rows
        batch.surfaces = surface_rows(res)
        counts: dict[str, int] = {}
        for f in ex.facts:
            for name, _ in f.entities:
                k = res.key_of(name)
                if k:
                    counts[k] = counts.get(k, 0) + 1
        for s in speakers:
            k = res.key_of(s)
            if k:
                counts.setdefault(k, 1)
        # Every entity the episode names is mentioned by it, in a fact or not: one written with
        # no edge ("Lincoln High", named in passing) was found by entity() and deleted by the
        # next forget's clean-up of what nothing refers to.
        for row in ent_rows:
            counts.setdefault(row["key"], 1)
        batch.mentions = [{"cellId": cell_id, "key": k, "count": n} for k, n in sorted(counts.items())]

        for f in ex.facts:
            fid = new_id("f")
            tids = [t for t in f.turn_ids if t in turn_ids] or [cell.turns[0].id]
            about = []
            for name, role in f.entities:
                k = res.key_of(name)
                if k and all(a["key"] != k for a in about):
                    about.append({"key": k, "role": role})
            # What is said of an entity or a thing no entity names ("billing", "launch") is on a
            # timeline of the group it was said in, as the entity is the group's: "Chloe owns
            # billing" in another team's channel ends nothing here.
            entity_key = res.key_of(f.subject)
            subject_key = (timeline_key(entity_key, first.group_id) if entity_key
                           else thing_key(f.subject, first.group_id))
            if f.predicate.startswith("contact at ") and f.predicate.endswith(" is"):
                # Whom the group deals with at a firm is one timeline, whoever of it says so: Sofia's
                # "Our new contact at Acme Freight is Laura Chen" had left Ravi's Mark Doyle current.
                subject_key = thing_key(f.predicate[:-len(" is")], first.group_id)
            if entity_key in res.entities and all(a["key"] != entity_key for a in about):
                about.insert(0, {"key": entity_key, "role": "subject"})
            said_in = next(t for t in cell.turns if t.id == tids[0])
            stated_at = said_in.at
            valid_from = f.valid_from or stated_at
            row = {
                "id": fid, "cellId": cell_id, "subject": f.subject, "predicate": f.predicate,
                "object": f.object, "text": f.text, "subjectKey": subject_key,
                "objectKey": normalize_key(f.object), "singleValued": bool(f.single_valued),
                "confidence": float(f.confidence), "validFrom": valid_from, "validTo": f.valid_to,
                "validFromUntil": f.valid_from_until if f.valid_from else None, "ends": f.ends,
                "corrects": list(f.corrects) if f.corrects else None, "movesTo": f.moves_to,
                "switchesTo": f.switches_to,
                "statedAt": stated_at, "speaker": said_in.speaker,  # (whom a correction's words name: corrections.py)
                "eventDate": f.event_date, "status": "retracted" if f.retracted else "current", "embedding": None,
                "turnIds": tids, "about": about, "conversationId": first.conversation_id,
                "groupId": first.group_id,
            }
            if id(f) in own:
                later.append((row, f.text))
            elif tids[0] in sentences_of:
                row["embedding"] = _vec(_sentence_vector(sentences_of[tids[0]], f.text))
            else:
                row["embedding"] = _vec(vec_of[tids[0]])
            batch.facts.append(row)
            subj = [a["key"] for a in about if a["role"] == "subject"]
            others = [a["key"] for a in about if a["role"] != "subject"]
            pairs = [(s, o, f.predicate) for s in subj[:1] for o in others]
            if not subj and f.predicate == "is":
                # a group's value held by someone ("best man | is | Davide", from Marco's "my best man";
                # "florist | is | Wild Bloom Studio"): whom the sentence names with it holds it for
                held_by = [a["key"] for a in about if a["role"] == "mentioned"]
                held = [a["key"] for a in about if a["role"] == "object"]
                pairs += [(s, o, f"{f.subject} is") for s in held_by[:1] for o in held]
            if f.predicate.startswith("contact at ") and f.predicate.endswith(" is"):
                # "My contact at Nudge is Dev Patel": Dev is Nudge's too (relatedTo("Nudge") reached
                # him only through the speaker, as far as every other thing she named)
                org, person = res.key_of(f.predicate[len("contact at "):-len(" is")]), res.key_of(f.object)
                if org and person and org in res.entities and person in res.entities:
                    pairs.append((person, org, "contact at"))
            if f.predicate == "said" and len(others) > 1:
                # What one says names its things together: "Helen said Rob Pascoe from Pascoe Plumbing & Heating
                # here in Porthleven" relates Rob to his firm, not only each to Helen (relatedTo("Rob Pascoe")
                # reached his firm only through her, tied with all else she named)
                pairs += [(others[0], o, "said with") for o in others[1:MAX_SAID_WITH + 1]]
            for s, o, predicate in pairs:
                if o != s and not {s, o} & assistants and not f.retracted:  # (a slip relates nothing)
                    batch.related.append({
                        "fromKey": s, "toKey": o, "predicate": predicate, "factId": fid,
                        "validFrom": valid_from, "validTo": f.valid_to,
                        "weight": float(f.confidence), "groupId": first.group_id,
                    })
        for fs in ex.foresights:
            tids = [t for t in fs.turn_ids if t in turn_ids] or [cell.turns[-1].id]
            row = {
                "id": new_id("fs"), "cellId": cell_id, "text": fs.text, "trigger": fs.trigger,
                "kind": fs.kind, "validFrom": fs.valid_from or cell.ended_at, "validTo": fs.valid_to,
                "embedding": None, "turnIds": tids, "concernsKey": res.concerned(fs.text),
                "conversationId": first.conversation_id, "groupId": first.group_id,
            }
            later.append((row, foresight_embedding_text(fs.text, fs.trigger)))
            batch.foresights.append(row)
        for end in ex.foresight_ends:
            tid = next((t for t in end.turn_ids if t in turn_ids), cell.turns[-1].id)
            terms = term_stats.query_terms(" ".join(end.words))
            if terms:
                batch.ends.append({
                    "who": end.who, "whoKey": res.key_of(end.who), "terms": terms, "turnId": tid,
                    "whoTimeline": timeline_key(k, first.group_id) if (k := res.key_of(end.who)) else None,
                    "done": (term_stats.query_terms(end.done) or [None])[0] if end.done else None,
                    "needs": term_stats.query_terms(" ".join(end.needs)) if end.needs else [],
                    "anyone": end.anyone, "day": end.day,
                    "kinds": ["constraint"] if end.kind == "constraint" else ["plan", "deadline"],
                    "at": next(t.at for t in cell.turns if t.id == tid),
                    "conversationId": first.conversation_id, "groupId": first.group_id,
                })
        rep.add_time("prepare", time.perf_counter() - t0)

        t0 = time.perf_counter()
        await big
        for row, text in later:
            row["embedding"] = _vec(cache.get(text))
        rep.add_time("embed", time.perf_counter() - t0)
        return batch


def _told_elsewhere(claim: str, turn: str) -> bool:
    """Whether most of a fact's words are not its turn's: a value put right in another turn's words ("Kieran's rate's
    going up to £13.50 an hour", of "Sorry, typo - £13.50, not £13.15"), or a turn read with the one before it ("The
    booster is now on 2026-10-13", of "Tuesday 13th at 9am now"). Its own words find it; the turn's sentence, nearly
    empty, had put it out of reach of any question about it."""
    words = [w for w in term_stats.query_terms(claim, 64) if w.isalpha()]
    said = _turn_terms(turn)
    return bool(words) and sum(w in said for w in words) < 0.5 * len(words)


@lru_cache(maxsize=1024)
def _turn_terms(turn: str) -> frozenset[str]:
    """A turn's stems, read once for all its facts."""
    return frozenset(term_stats.query_terms(turn, 256))


def _sentence_vector(turn_sentences, claim: str) -> np.ndarray:
    """The vector of the turn's sentence the fact was stated in (late chunking: see
    Embedder.embed_spans)."""
    content, head, sents = turn_sentences
    return sents[best_span(content, [(a, z) for a, z, _ in sents], claim, offset=head)][2]

