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
# What a kind's nodes say of the scopes a search may ask for, each served by a range index
# (bm25.proposals' `scope`; migration 0017). An episode is a user's by a list (userIds): only
# the fulltext index proposes episodes for a user.
SCOPES = {"turn": filters.SCOPES, "fact": filters.SCOPES, "memcell": ("conversationId", "groupId")}
LABEL = {"turn": "Turn", "fact": "Fact", "memcell": "MemCell"}
# Nodes of a scope read for the query's words, at most: a conversation's, a family's, a user's
# texts are often all of them; a scope larger than that mostly fills the fulltext index's bound.
SCOPE_SCAN = 3000


def _scope_pattern(kind: str, scope: frozenset[str]) -> str:
    props = [p for p in SCOPES[kind] if p in scope]
    if not props:
        return ""
    return f"(n:{LABEL[kind]} {{tenant: $tenant, {', '.join(f'{p}: ${p}' for p in props)}}})"


def _subquery(kind: str, scope: frozenset[str]) -> str:
    carry = f"{kind}_idf, {kind}_avglen"
    found = bm25.proposals(INDEX[kind][0], f"lucene_{kind}", carry=carry, scope=_scope_pattern(kind, scope))
    if kind == "turn":
        return f"""
  {found}
  WHERE n.tenant = $tenant AND {filters.TURN}
  {bm25.score("turn", carry=carry, held=True)}
  WHERE bm25 > 0
  WITH n AS t, bm25, held
  OPTIONAL MATCH (t)-[:NEXT]->(n:Turn) WHERE n.tenant = $tenant AND {filters.TURN}
  WITH t, bm25, held, n ORDER BY bm25 DESC, t.conversationId, t.seq
  RETURN collect({{key: elementId(t), score: bm25, by: t.speaker, holds: held, reply: elementId(n),
                   replyBy: n.speaker, replyHolds: {holds('n')}}}) AS turn"""
    return f"""
  {found}
  WHERE n.tenant = $tenant AND {filters.BY_KIND[kind]}
  {bm25.score(kind, carry=carry)}
  WHERE bm25 > 0
  WITH n, bm25 ORDER BY bm25 DESC, {TIE[kind]}, elementId(n) LIMIT $limit
  RETURN collect({{key: elementId(n), score: bm25, evidence: {EVIDENCE[kind]}}}) AS {kind}"""


# Equal scores are ordered by what a restored copy keeps too (element ids are not kept).
TIE = {"fact": "n.validFrom, n.text", "memcell": "n.startedAt, n.title"}


@lru_cache(maxsize=64)
def query_for(kinds: tuple[str, ...], scope: frozenset[str] = frozenset()) -> str:
    """`scope`: the request's scope filters that have a value (filters.scoped)."""
    stats = "\n".join(bm25.statistics(k) for k in kinds)
    calls = "\n".join(f"CALL ({k}_idf, {k}_avglen) {{{_subquery(k, scope)}\n}}" for k in kinds)
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
        terms, words = ctx.keyword_terms
        if not terms or not words:
            return []
        kinds = tuple(k for k in INDEX if k in ctx.request.kinds)
        if not kinds:
            return []
        record = await ctx.graph.read_one(
            query_for(kinds, filters.scoped(ctx.filters)), perWord=bm25.per_word(ctx.depth * 3, len(terms)), limit=ctx.depth,
            terms=words, scopeScan=SCOPE_SCAN,
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
