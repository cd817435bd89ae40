"""Word statistics per tenant, so that keyword (BM25) scores depend on the tenant's own text only.

Neo4j's fulltext indexes hold every tenant's text, and Lucene takes BM25's statistics (how many
documents hold a word, their average length) from the whole index. A tenant's ranking then
moved with what other tenants stored (measured: LoCoMo KEYWORD R@10 0.660 on a clean database,
0.602 with a 100k-episode tenant beside it), and a score carried a faint trace of other tenants'
word counts. So the fulltext index only proposes candidates, and the keyword channel scores them
with these statistics (app/recollection/bm25.py).

What is kept, for each searchable kind of node (turn, memcell, fact, foresight, entity):
  on the node       `terms` (its distinct words, sorted), `termFreqs` (how often each occurs)
                    and `termCount` (its length in words, common words included);
  (:TermStat {tenant, kind, term, df})    how many of the tenant's nodes of the kind hold it;
  (:CorpusStat {tenant, kind, docs, tokens})  how many nodes, and their total length.
They are written in the transaction that writes the nodes (an entity's again when its aliases
grow: `changes`), and taken back in the transaction that deletes each node (TAKE_BACK), so they
never drift from the text, even when a delete is interrupted and re-run. A word no node holds any more loses its TermStat: forgetting leaves no
trace of a word. Exports leave them out and imports count them anew from the nodes' text.

Words are counted by their stem (Porter's algorithm, which Lucene's `english` analyzer of the
fulltext indexes uses too, migration 0008): "painted" and "paintings" are one word, on the nodes
and in queries alike. Plain words missed most of a conversation's paraphrases (LoCoMo dev, BM25
over turns, R@10: 0.575 without stemming, 0.614 with it; every category gained). The stemmed
terms are version 2 of the statistics: a database counted with plain words is counted again once
(`backfill`).
"""
from __future__ import annotations

import re
import threading
from collections import Counter

import Stemmer
from neo4j import AsyncDriver

from app.recollection.lucene import STOP
from app.store import admin
from app.store.graph import TenantGraph
from app.store.locking import still_there

# Text properties of each kind, as the fulltext indexes (migration 0003) hold them.
FIELDS = {
    "turn": ("speaker", "content"),
    "memcell": ("title", "summary", "keywordText"),
    "fact": ("text",),
    "foresight": ("text", "trigger"),
    "entity": ("name", "aliasText"),
}
LABEL_KIND = {"Turn": "turn", "MemCell": "memcell", "Fact": "fact", "Foresight": "foresight",
              "Entity": "entity"}

# Words as Lucene's standard tokenizer cuts them (an apostrophe inside a word keeps it whole),
# with the English possessive dropped: "Caroline's" counts as "caroline".
_WORD = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$")
# The stop words of Lucene's english analyzer (db.index.fulltext.listAvailableAnalyzers).
LUCENE_STOP = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then "
    "there these they this to was will with".split())
# Words never asked for (app/recollection/lucene.py drops them from queries) and words the
# fulltext indexes drop (a query of them alone would leave Lucene nothing to look for): not
# stored, not scored.
_UNASKED = STOP | LUCENE_STOP


# A stemmer object must not be shared between threads (PyStemmer); one per thread.
_local = threading.local()


# Lucene's standard tokenizer cuts a longer word into pieces of this many characters; so do we.
# A pasted firmware dump or base64 blob, one word of thousands of characters, made a TermStat
# whose key the unique index (migration 0007, at most ~8 KB a key) refused: the write failed.
MAX_WORD = 255


def words(text: str | None) -> list[str]:
    if not text:
        return []
    out = []
    for w in _WORD.findall(text.lower()):
        w = _POSSESSIVE.sub("", w)
        out.extend([w] if len(w) <= MAX_WORD else (w[i:i + MAX_WORD] for i in range(0, len(w), MAX_WORD)))
    return out


def stem(word: str) -> str:
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("porter")
    return stemmer.stemWord(word)


def query_terms(text: str, max_terms: int = 32) -> list[str]:
    """The distinct stems of a query's words that are scored, in order."""
    out: list[str] = []
    for w in words(text):
        if w in _UNASKED:
            continue
        t = stem(w)
        if t not in out:
            out.append(t)
            if len(out) >= max_terms:
                break
    return out


def index_token(tenant: str) -> str | None:
    """The tenant's name as the fulltext indexes hold it (their `tenant` field goes through the
    english analyzer too): None when it is a stop word, which Lucene drops."""
    return None if tenant in LUCENE_STOP else stem(tenant)


def node_terms(kind: str, props: dict) -> dict:
    """The `terms`, `termFreqs` and `termCount` properties of a node of `kind`."""
    tokens = [w for f in FIELDS[kind] for w in words(props.get(f))]
    counts = Counter(stem(w) for w in tokens if w not in _UNASKED)
    terms = sorted(counts)
    return {"terms": terms, "termFreqs": [counts[t] for t in terms], "termCount": len(tokens)}


def additions(kind: str, nodes: list[dict]) -> dict:
    """Parameters of ADD for nodes (each with node_terms' properties) of one kind."""
    df = Counter(t for n in nodes for t in n["terms"])
    return {"kind": kind, "docs": len(nodes), "tokens": sum(n["termCount"] for n in nodes),
            # Sorted, so concurrent writers lock the statistics in the same order.
            "termDf": [{"term": t, "n": df[t]} for t in sorted(df)]}


def changes(kind: str, old: list[dict], new: list[dict]) -> dict:
    """Parameters of ADD for nodes whose terms change from `old` to `new` (pairwise; an old
    entry of None: the node had none)."""
    df: Counter = Counter()
    docs = tokens = 0
    for o, n in zip(old, new):
        before = set(o["terms"]) if o else set()
        df.update({t: 1 for t in set(n["terms"]) - before})
        df.update({t: -1 for t in before - set(n["terms"])})
        docs += 0 if o else 1
        tokens += n["termCount"] - (o["termCount"] if o else 0)
    return {"kind": kind, "docs": docs, "tokens": tokens,
            "termDf": [{"term": t, "n": df[t]} for t in sorted(df) if df[t]]}


# Counts added (or, negative, taken away); a word no node holds any more loses its TermStat.
ADD = """
MERGE (c:CorpusStat {tenant: $tenant, kind: $kind}) ON CREATE SET c.docs = 0, c.tokens = 0
SET c.docs = c.docs + $docs, c.tokens = c.tokens + $tokens
WITH c
UNWIND $termDf AS x
MERGE (s:TermStat {tenant: $tenant, kind: $kind, term: x.term}) ON CREATE SET s.df = 0
SET s.df = s.df + x.n
WITH s WHERE s.df <= 0
DELETE s
"""

_KIND_OF_N = "CASE " + " ".join(f"WHEN n:{label} THEN '{kind}'" for label, kind in LABEL_KIND.items()) + " END"

# A subquery taking node `n`'s words out of the statistics; to run in the transaction that
# deletes `n`.
TAKE_BACK = f"""CALL (n) {{
    WITH n, {_KIND_OF_N} AS kind
    WHERE kind IS NOT NULL AND n.terms IS NOT NULL
    MATCH (c:CorpusStat {{tenant: $tenant, kind: kind}})
    SET c.docs = c.docs - 1, c.tokens = c.tokens - n.termCount
    WITH n, kind
    UNWIND n.terms AS term
    MATCH (s:TermStat {{tenant: $tenant, kind: kind, term: term}})
    SET s.df = s.df - 1
    WITH s WHERE s.df <= 0
    DELETE s
  }}"""

# A batch that meets a writer of the same tenant (both lock statistics, in their own orders) can
# deadlock; Neo4j then fails one of them, and a failed batch is rolled back whole, so it is
# simply run again.
RETRY = "ON ERROR RETRY FOR 30 SECONDS THEN FAIL"

# Deletes the nodes of $keys (elementIds) in batches, each node's statistics taken back in the
# transaction that deletes it, once: a node another deletion took meanwhile is skipped (taken
# back twice, its counts read as null left docs one too low and tokens null: every episode's
# BM25 zero). `deleted` counts the nodes this call deleted.
DELETE_NODES = f"""
UNWIND $keys AS k
MATCH (n) WHERE elementId(n) = k AND n.tenant = $tenant
CALL (n) {{
  {still_there("n")}
  {TAKE_BACK}
  DETACH DELETE n
  RETURN 1 AS gone
}} IN TRANSACTIONS OF 1000 ROWS {RETRY}
RETURN count(gone) AS deleted
"""

# What a write query returns for recount_nodes: a node's text as it is now, and its words as
# they were last counted.
RECOUNT_COLUMNS = {
    kind: "elementId(n) AS key, " + ", ".join(f"n.{f} AS {f}" for f in fields)
          + ", n.terms AS terms, n.termCount AS termCount"
    for kind, fields in FIELDS.items()
}

# A tenant's nodes of one kind that have no `terms` yet (written before this existed).
MISSING = {
    kind: f"""
MATCH (n:{label} {{tenant: $tenant}}) WHERE n.terms IS NULL
RETURN elementId(n) AS key, {', '.join(f'n.{f} AS {f}' for f in FIELDS[kind])}
LIMIT $batch"""
    for label, kind in LABEL_KIND.items()
}

SET_TERMS = """
UNWIND $rows AS r
MATCH (n) WHERE elementId(n) = r.key AND n.tenant = $tenant
SET n.terms = r.terms, n.termFreqs = r.termFreqs, n.termCount = r.termCount
"""

# Every node's terms taken away, for fill_missing to cut them again from the text.
CLEAR = {
    kind: f"""
MATCH (n:{label} {{tenant: $tenant}}) WHERE n.terms IS NOT NULL
CALL (n) {{ REMOVE n.terms, n.termFreqs, n.termCount }} IN TRANSACTIONS OF 5000 ROWS
"""
    for label, kind in LABEL_KIND.items()
}

# The tenant's statistics, found through the constraints' indexes (a composite index serves a
# query on its first property only when the others are asked to exist; without that, a scan of
# every tenant's statistics).
PURGE = {
    "TermStat": """
MATCH (n:TermStat {tenant: $tenant}) WHERE n.kind IS NOT NULL AND n.term IS NOT NULL
CALL (n) { DELETE n } IN TRANSACTIONS OF 5000 ROWS
""",
    "CorpusStat": """
MATCH (n:CorpusStat {tenant: $tenant}) WHERE n.kind IS NOT NULL
CALL (n) { DELETE n } IN TRANSACTIONS OF 5000 ROWS
""",
}

# Statistics recounted from the nodes' `terms`, for one kind (label from LABEL_KIND only).
RECOUNT = {
    kind: f"""
CALL () {{
  MATCH (n:{label} {{tenant: $tenant}}) WHERE n.terms IS NOT NULL
  WITH count(n) AS docs, sum(n.termCount) AS tokens
  WHERE docs > 0
  CREATE (:CorpusStat {{tenant: $tenant, kind: '{kind}', docs: docs, tokens: tokens}})
}}
CALL () {{
  MATCH (n:{label} {{tenant: $tenant}}) WHERE n.terms IS NOT NULL
  UNWIND n.terms AS term
  WITH term, count(*) AS df
  CREATE (:TermStat {{tenant: $tenant, kind: '{kind}', term: term, df: df}})
}}"""
    for label, kind in LABEL_KIND.items()
}


async def recount_nodes(tx, kind: str, rows: list[dict]) -> None:
    """Terms and statistics of nodes whose text may have changed (an entity's aliases), in the
    caller's transaction; `rows` as a write query returned them (RECOUNT_COLUMNS)."""
    rows = list({r["key"]: r for r in rows}.values())  # a node written twice is counted once
    new = [node_terms(kind, r) for r in rows]
    changed = [(r, n) for r, n in zip(rows, new)
               if r["terms"] != n["terms"] or r["termCount"] != n["termCount"]]
    if not changed:
        return
    await tx.run(SET_TERMS, rows=[{"key": r["key"], **n} for r, n in changed])
    old = [{"terms": r["terms"], "termCount": r["termCount"]} if r["terms"] is not None else None
           for r, _ in changed]
    await tx.run(ADD, **changes(kind, old, [n for _, n in changed]))


async def fill_missing(graph: TenantGraph, batch: int = 1000) -> int:
    """Give `terms` to the tenant's nodes that lack them; returns how many."""
    filled = 0
    for kind in FIELDS:
        while rows := await graph.read(MISSING[kind], batch=batch):
            await graph.write(SET_TERMS, rows=[{"key": r["key"], **node_terms(kind, r)} for r in rows])
            filled += len(rows)
    return filled


async def rebuild(graph: TenantGraph, recount_terms: bool = False) -> int:
    """The tenant's statistics counted anew from its nodes (after an import, or for data written
    before they existed); returns how many nodes had to be given their terms first.
    `recount_terms`: every node's terms cut again from its text first (an import's nodes, or
    words counted by an older version). Not meant to run beside writes of the same tenant."""
    if recount_terms:
        for query in CLEAR.values():
            await graph.auto_commit(query)
    filled = await fill_missing(graph)
    for query in PURGE.values():
        await graph.auto_commit(query)
    for kind in FIELDS:
        await graph.write(RECOUNT[kind])
    return filled


# The version of the words counted (2: stemmed); a database counted otherwise is counted again.
BACKFILL = "term_stats_v2"


async def backfill(driver: AsyncDriver, database: str = "neo4j", log=lambda _m: None) -> int:
    """Once per database and version: statistics for every tenant whose text was written before
    they existed, or counted in plain words. Recorded as done only when complete, so an
    interrupted run is redone from the start."""
    if await admin.data_migrated(driver, BACKFILL, database):
        return 0
    tenants = await admin.tenants_with_text(driver, database)
    for tenant in tenants:
        filled = await rebuild(TenantGraph(driver, tenant, database), recount_terms=True)
        log(f"keyword statistics of tenant {tenant}: {filled} nodes given their terms")
    await admin.record_data_migration(driver, BACKFILL, database)
    return len(tenants)
