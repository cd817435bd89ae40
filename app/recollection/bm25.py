"""BM25 from the tenant's own statistics (app/store/term_stats.py), as Cypher fragments.

The fulltext index proposes candidates, word by word (`proposals`: its own scores use every
tenant's text), and each candidate is scored again inside the same query:

    bm25(n) = sum over the query's words w held by n of
              idf(w) * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len(n) / avglen))
    idf(w)  = ln(1 + (docs - df(w) + 0.5) / (df(w) + 0.5))

with tf, len(n) from the node (`termFreqs`, `termCount`) and docs, df, avglen from the tenant's
nodes of the same kind. Lucene's constants, and its formula, except that a node's text fields
count as one text (Lucene scores each field apart and adds).
"""
from __future__ import annotations

K1 = 1.2
B = 0.75


def proposals(index: str, queries: str, node: str = "n", carry: str = "", scope: str = "") -> str:
    """Cypher proposing the candidates of `index`: one fulltext search per word of the query
    (`queries`: the parameter listing them, from lucene.word_queries), each bounded by $perWord.
    One search OR-ing the words would let Lucene choose which of the tenant's texts make the
    bound by its whole-index statistics: another tenant writing one of the words often made the
    texts holding it fall out of a tenant's results (and showed how often others wrote it).

    `scope`: a pattern matching the nodes of the search's scope (a conversation, group or user)
    by a range index: those of its first $scopeScan holding a word of $terms are proposed too.
    The index's bound is over the whole tenant: when more of its texts than that hold a word, a
    scope's own could all fall out (a student's one "homework" among 160 of other students')."""
    keep = f", {carry}" if carry else ""
    lucene = f"""UNWIND ${queries} AS q
  CALL db.index.fulltext.queryNodes('{index}', q, {{limit: $perWord}}) YIELD node AS {node}"""
    if not scope:
        return f"{lucene}\n  WITH DISTINCT {node}{keep}"
    return f"""CALL () {{
  {lucene}
  RETURN {node}
  UNION
  MATCH {scope} WITH {node} LIMIT $scopeScan
  WHERE any(w IN coalesce({node}.terms, []) WHERE w IN $terms)
  RETURN {node}
  }}
  WITH DISTINCT {node}{keep}"""


def per_word(total: int, words: int) -> int:
    """Candidates asked of each word's search: about twice `total` in all, never more than
    `total` for one word."""
    return max(1, min(total, -(-2 * total // max(words, 1))))


def statistics(kind: str) -> str:
    """A subquery binding `{kind}_idf` (one value per word of $terms, in order) and
    `{kind}_avglen`. `kind` is one of term_stats.FIELDS, never user input."""
    return f"""CALL () {{
  OPTIONAL MATCH (c:CorpusStat {{tenant: $tenant, kind: '{kind}'}})
  WITH coalesce(c.docs, 0) AS docs, coalesce(c.tokens, 0) AS tokens
  UNWIND range(0, size($terms) - 1) AS j
  OPTIONAL MATCH (s:TermStat {{tenant: $tenant, kind: '{kind}', term: $terms[j]}})
  WITH docs, tokens, j, coalesce(s.df, 0) AS df ORDER BY j
  RETURN collect(log(1 + (docs - df + 0.5) / (df + 0.5))) AS {kind}_idf,
         CASE WHEN docs > 0 THEN toFloat(tokens) / docs ELSE 1.0 END AS {kind}_avglen
}}"""


def score(kind: str, node: str = "n", carry: str = "", held: bool = False) -> str:
    """WITH clauses binding `bm25` for `node`; `carry` lists the other variables to keep.
    `held`: also bind `held`, the query's words the node holds in the order of $terms (what
    channels/base.holds reads), from the words BM25 matched instead of a second pass over
    the node's words."""
    keep = f"{node}, {carry}, " if carry else f"{node}, "
    words = ", [w IN $terms WHERE w IN [h IN hits | h[0]]] AS held" if held else ""
    return f"""WITH {keep}coalesce({node}.terms, []) AS ts, coalesce({node}.termFreqs, []) AS fs,
     coalesce({node}.termCount, 0) AS dl
WITH {keep}dl, [i IN range(0, size(ts) - 1) WHERE ts[i] IN $terms | [ts[i], fs[i]]] AS hits
WITH {keep}reduce(acc = 0.0, h IN hits |
       acc + head([j IN range(0, size($terms) - 1) WHERE $terms[j] = h[0] | {kind}_idf[j]])
           * h[1] * {K1 + 1} / (h[1] + {K1} * ({1 - B} + {B} * dl / {kind}_avglen))) AS bm25{words}"""
