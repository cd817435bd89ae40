"""Vectors recomputed after an import (`--reembed`, or a file exported with --no-embeddings),
from the same texts and in the same way as ingestion makes them, so a restored tenant searches
like the original. Each recipe mirrors app/construction/pipeline.py:

  Turn       embedding_text(turn): speaker, day, content
  Entity     its name (entity_resolution embeds the draft name the entity was created with)
  Foresight  its trigger (foresight_embedding_text)
  Fact       ENGRAM_FACT_VECTORS=sentence: the vector of the sentence of its first evidence turn
             it was stated in (Embedder.embed_spans); otherwise the vector of that turn when it
             is the only fact of its cell from that turn (or =turn), else its own text
  MemCell    the normalised mean of its turns' vectors, in conversation order (float32)
  MemScene   as app/lifecycle/scenes.py: the normalised sum of its members' unit topic vectors
             (MemCell.topicVector), or of their vectors for members that have none

Recipes run in that order: facts and cells are made from turn vectors, scenes from cell vectors.
The importer flags the nodes whose vectors are to be made (`importReembed`); a recipe reads the
flagged nodes of its label in one streamed query and writes vectors in batches, clearing the
flag with the vector, so an interrupted run leaves flags that say what is still missing.
"""
from __future__ import annotations

from contextlib import aclosing
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Awaitable, Callable

import numpy as np

from app.construction.boundaries import unit
from app.construction.pipeline import embedding_text, foresight_embedding_text
from app.embeddings import Embedder
from app.settings import Settings
from app.store.graph import TenantGraph

FLAG = "importReembed"
BATCH = 256

SET_VECTORS = """
UNWIND $rows AS r
MATCH (n) WHERE elementId(n) = r.k AND n.tenant = $tenant
SET n.embedding = r.v
REMOVE n.importReembed
"""


@dataclass(frozen=True)
class Recipe:
    label: str
    query: str  # flagged nodes of the label: k (element id) and what the vector is made from
    make: Callable[[list[dict], Embedder, Settings], Awaitable[list[list[float] | None]]]


def unit_rows(m: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(n == 0, 1.0, n)


def _floats(v: np.ndarray) -> list[float]:
    return [float(x) for x in v]


async def _texts(texts: list[str], embedder: Embedder) -> list[list[float] | None]:
    return [_floats(v) for v in await embedder.aembed(texts)]


async def _turns(rows, embedder, settings):
    return await _texts([embedding_text(SimpleNamespace(
        speaker=r["speaker"], content=r["content"],
        at=r["at"].to_native() if hasattr(r["at"], "to_native") else r["at"])) for r in rows], embedder)


async def _entities(rows, embedder, settings):
    return await _texts([r["name"] for r in rows], embedder)


async def _foresights(rows, embedder, settings):
    return await _texts([foresight_embedding_text(r["text"], r["trigger"]) for r in rows], embedder)


async def _facts(rows, embedder, settings):
    if settings.fact_vectors == "sentence":
        return await _fact_sentences(rows, embedder)
    reuse_all = settings.fact_vectors == "turn"
    reuse = [r["turnVector"] is not None and (reuse_all or r["sharing"] == 1) for r in rows]
    own = await _texts([r["text"] for r, re in zip(rows, reuse) if not re], embedder)
    it = iter(own)
    # The turn's stored vector came from float32, so float32 -> float64 returns it unchanged.
    return [r["turnVector"] if re else next(it) for r, re in zip(rows, reuse)]


async def _fact_sentences(rows, embedder):
    """As the pipeline: the turn read once by the model, the fact's sentence pooled from it."""
    from app.construction.pipeline import turn_texts
    from app.construction.sentences import best_span, sentence_spans

    with_turn = [r for r in rows if r["content"] is not None]
    texts, heads = turn_texts([(r["speaker"], r["at"].to_native() if hasattr(r["at"], "to_native") else r["at"],
                                r["content"]) for r in with_turn])
    spans = []
    for r, text, head in zip(with_turn, texts, heads):
        sents = sentence_spans(text[head:], offset=head)
        if sents:
            i = best_span(r["content"], sents, r["text"], offset=head)
            spans.append([sents[i]])
        else:
            spans.append([])
    _, span_vecs = await embedder.aembed_spans(texts, spans, heads)
    made = {id(r): (sv[0] if sv else None) for r, sv in zip(with_turn, span_vecs)}
    own_rows = [r for r in rows if made.get(id(r)) is None]
    own = iter(await _texts([r["text"] for r in own_rows], embedder))
    return [_floats(made[id(r)]) if made.get(id(r)) is not None else next(own) for r in rows]


def _mean_unit(vectors: list[list[float]], dtype) -> list[float] | None:
    if not vectors:
        return None
    return _floats(unit(np.mean(np.asarray(vectors, dtype=dtype), axis=0)))


async def _cells(rows, embedder, settings):
    # As the pipeline: mean of float32 turn vectors, in turn order, then unit length.
    return [_mean_unit(r["vectors"], np.float32) for r in rows]


async def _scenes(rows, embedder, settings):
    out = []
    for r in rows:
        if not r["vectors"]:
            out.append(None)
            continue
        x = np.asarray(r["vectors"], dtype=np.float64)
        out.append(_floats(unit(unit_rows(x).sum(axis=0))))
    return out


RECIPES: tuple[Recipe, ...] = (
    Recipe("Turn", """
MATCH (t:Turn {tenant: $tenant}) WHERE t.importReembed
RETURN elementId(t) AS k, t.speaker AS speaker, t.at AS at, t.content AS content""", _turns),
    Recipe("Entity", """
MATCH (e:Entity {tenant: $tenant}) WHERE e.importReembed
RETURN elementId(e) AS k, e.name AS name""", _entities),
    Recipe("Foresight", """
MATCH (f:Foresight {tenant: $tenant}) WHERE f.importReembed
RETURN elementId(f) AS k, f.text AS text, f.trigger AS trigger""", _foresights),
    # `sharing`: facts of the same cell whose first evidence turn is this fact's (the pipeline's
    # facts_per_turn); the first turn is the earliest one.
    Recipe("Fact", """
MATCH (f:Fact {tenant: $tenant}) WHERE f.importReembed
OPTIONAL CALL (f) {
  MATCH (f)-[:EVIDENCED_BY]->(t:Turn {tenant: $tenant}) RETURN t AS first ORDER BY t.seq LIMIT 1
}
OPTIONAL CALL (f, first) {
  MATCH (m:MemCell {tenant: $tenant})-[:HAS_FACT]->(f)
  RETURN COUNT {
    MATCH (m)-[:HAS_FACT]->(g:Fact)
    WHERE COLLECT { MATCH (g)-[:EVIDENCED_BY]->(u:Turn) RETURN u ORDER BY u.seq LIMIT 1 }[0] = first
  } AS sharing LIMIT 1
}
RETURN elementId(f) AS k, f.text AS text, first.embedding AS turnVector, coalesce(sharing, 0) AS sharing,
       first.speaker AS speaker, first.at AS at, first.content AS content""",
           _facts),
    Recipe("MemCell", """
MATCH (m:MemCell {tenant: $tenant}) WHERE m.importReembed
CALL (m) {
  OPTIONAL MATCH (m)-[:EVIDENCED_BY]->(t:Turn {tenant: $tenant})
  WITH t ORDER BY t.seq RETURN collect(t.embedding) AS vectors
}
RETURN elementId(m) AS k, vectors""", _cells),
    Recipe("MemScene", """
MATCH (s:MemScene {tenant: $tenant}) WHERE s.importReembed
CALL (s) {
  OPTIONAL MATCH (s)-[i:INCLUDES]->(m:MemCell {tenant: $tenant})
  WITH m, i ORDER BY i.order RETURN collect(coalesce(m.topicVector, m.embedding)) AS vectors
}
RETURN elementId(s) AS k, vectors""", _scenes),
)
RECIPE_LABELS = frozenset(r.label for r in RECIPES)
VECTOR_PROPERTY = "embedding"  # the one property the recipes make


def recipe_label(labels: list[str]) -> str | None:
    return next((r.label for r in RECIPES if r.label in labels), None)


async def reembed(graph: TenantGraph, embedder: Embedder, settings: Settings,
                  labels: frozenset[str] = RECIPE_LABELS) -> dict[str, dict[str, int]]:
    """Make every flagged vector of `labels`; returns per label how many were made and how many
    could not be (a cell whose turns have no vectors, say: it keeps none, as the source had none
    usable)."""
    out: dict[str, dict[str, int]] = {}

    async def flush(recipe: Recipe, rows: list[dict], stats: dict[str, int]) -> None:
        vectors = await recipe.make(rows, embedder, settings)
        await graph.write(SET_VECTORS, rows=[{"k": r["k"], "v": v} for r, v in zip(rows, vectors)])
        stats["made"] += sum(1 for v in vectors if v is not None)
        stats["missing"] += sum(1 for v in vectors if v is None)

    for recipe in (r for r in RECIPES if r.label in labels):
        stats = {"made": 0, "missing": 0}
        rows: list[dict] = []
        async with aclosing(graph.stream(recipe.query)) as found:
            async for row in found:
                rows.append(row)
                if len(rows) >= BATCH:
                    await flush(recipe, rows, stats)
                    rows = []
        if rows:
            await flush(recipe, rows, stats)
        if stats["made"] or stats["missing"]:
            out[recipe.label] = stats
    return out
