"""Keyword channel: BM25 over the fulltext indexes, with user text made safe for Lucene."""
from __future__ import annotations

from functools import lru_cache

from app.recollection import bm25, filters
from app.recollection.lucene import word_queries
from app.recollection.channels.base import (EVIDENCE, Candidate, SearchContext, VectorPart, candidates, holds,
                                            interleave)

INDEX = {
    "turn": ("turn_text", ["content", "speaker"]),
    "fact": ("fact_text", ["text"]),
    "memcell": ("memcell_text", ["title", "summary", "keywordText"]),
}

# A turn's words often only make sense with the turn before it ("I've had them for 3 years now"
# answers "How long have you had your turtles?"). So a turn also scores PRIOR_WEIGHT x the BM25
# score of the turn it follows: the replies of the matching turns come along, ranked within the
# channel. Done at query time, so no copy of a turn's words sits on another node (forgetting a
# turn forgets its words everywhere). LoCoMo dev, fused evidence R@10: 0.690 without, 0.703
# with 0.4 and 0.704 with 0.7; each half of the conversations moved the same way.
PRIOR_WEIGHT = 0.5

# One subquery per kind, each collecting its rows into a column. The kinds' index searches run
# one after another inside Neo4j, which costs less than three round trips (~1 ms of CPU each
# side, whatever the query: profiled) and is not on the search's critical path (the vector and
# graph channels are). The fulltext index only proposes candidates, word by word: each is scored
# by BM25 from the tenant's own word statistics (app/recollection/bm25.py), so no other tenant's
# text moves a ranking or a score, nor weighs one word against another in choosing candidates
# (what is left: among more texts holding one word than the bound, Lucene proposes first by
# their lengths against the whole index's average).
SUBQUERY = {
    "turn": f"""
  {bm25.proposals("turn_text", "lucene_turn", carry="turn_idf, turn_avglen")}
  WHERE n.tenant = $tenant AND {filters.TURN}
  {bm25.score("turn", carry="turn_idf, turn_avglen", held=True)}
  WHERE bm25 > 0
  WITH n AS t, bm25, held
  OPTIONAL MATCH (t)-[:NEXT]->(n:Turn) WHERE n.tenant = $tenant AND {filters.TURN}
  WITH t, bm25, held, n ORDER BY bm25 DESC, t.conversationId, t.seq
  RETURN collect({{key: elementId(t), score: bm25, by: t.speaker, holds: held, reply: elementId(n),
                   replyBy: n.speaker, replyHolds: {holds('n')}}}) AS turn""",
}
# Equal scores are ordered by what a restored copy keeps too (element ids are not kept).
TIE = {"fact": "n.validFrom, n.text", "memcell": "n.startedAt, n.title"}
for _kind in ("fact", "memcell"):
    SUBQUERY[_kind] = f"""
  {bm25.proposals(INDEX[_kind][0], f"lucene_{_kind}", carry=f"{_kind}_idf, {_kind}_avglen")}
  WHERE n.tenant = $tenant AND {filters.BY_KIND[_kind]}
  {bm25.score(_kind, carry=f"{_kind}_idf, {_kind}_avglen")}
  WHERE bm25 > 0
  WITH n, bm25 ORDER BY bm25 DESC, {TIE[_kind]}, elementId(n) LIMIT $limit
  RETURN collect({{key: elementId(n), score: bm25, evidence: {EVIDENCE[_kind]}}}) AS {_kind}"""


@lru_cache(maxsize=8)
def query_for(kinds: tuple[str, ...]) -> str:
    stats = "\n".join(bm25.statistics(k) for k in kinds)
    calls = "\n".join(f"CALL ({k}_idf, {k}_avglen) {{{SUBQUERY[k]}\n}}" for k in kinds)
    # The turns' idf of the query's words also weighs them in the ranker's coverage column.
    idf = ", turn_idf" if "turn" in kinds else ""
    return f"{stats}\n{calls}\nRETURN {', '.join(kinds)}{idf}"


def with_priors(rows: list[dict], limit: int) -> list[dict]:
    """Turns ranked by their own BM25 score plus PRIOR_WEIGHT x that of the turn before them."""
    own = {r["key"]: float(r["score"]) for r in rows}
    total = dict(own)
    for r in rows:
        if r["reply"]:
            total[r["reply"]] = total.get(r["reply"], 0.0) + PRIOR_WEIGHT * float(r["score"])
    # Ties go to the earlier turn (rows come ordered by score, then place in the conversation),
    # which an export and import keeps, where element ids are not kept.
    keys = [r["key"] for r in rows] + [r["reply"] for r in rows if r["reply"]]
    order = {k: i for i, k in enumerate(dict.fromkeys(keys))}
    ranked = sorted(total, key=lambda k: (-total[k], order[k]))[:limit]
    reply = {r["key"]: r["reply"] for r in rows}  # not known for a turn that came as a reply
    said = {r["key"]: r["by"] for r in rows} | {r["reply"]: r["replyBy"] for r in rows if r["reply"]}
    held = {r["key"]: r["holds"] for r in rows} | {r["reply"]: r["replyHolds"] for r in rows if r["reply"]}
    return [{"key": k, "score": total[k], "evidence": [[k, said.get(k)]], "holds": held.get(k),
             "reply": reply.get(k), "replyBy": said.get(reply.get(k)), "replyHolds": held.get(reply.get(k)),
             "secondHand": k not in own,
             "note": f"bm25 {total[k]:.2f}" + ("" if k in own else " (the turn before matched)")}
            for k in ranked]


def lucene_for(kind: str, terms: list[str], tenant: str) -> list[str]:
    """One query per word, within the kind's text fields (bm25.proposals)."""
    return word_queries(terms, INDEX[kind][1], tenant)


class KeywordChannel:
    name = "keyword"

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        return []

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        terms, words = ctx.lucene_terms, ctx.words
        if not terms or not words:
            return []
        kinds = tuple(k for k in INDEX if k in ctx.request.kinds)
        if not kinds:
            return []
        record = await ctx.graph.read_one(
            query_for(kinds), perWord=bm25.per_word(ctx.depth * 3, len(terms)), limit=ctx.depth, terms=words,
            adapted=await ctx.adapted() if "memcell" in kinds else None,
            **{f"lucene_{k}": lucene_for(k, terms, ctx.graph.tenant) for k in kinds}, **ctx.filters)
        if "turn" in kinds:
            ctx.word_idf = dict(zip(words, record["turn_idf"]))
        results = []
        for kind in kinds:
            if kind == "turn":
                results.append(candidates(kind, with_priors(record[kind], ctx.depth), lambda r: r["note"]))
            else:
                results.append(candidates(kind, record[kind], lambda r: f"bm25 {r['score']:.2f}"))
        return interleave(results)
