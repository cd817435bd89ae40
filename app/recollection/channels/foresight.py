"""Foresight channel: prospective memories active at the moment asked about whose trigger (the
situations where they matter) is close to the query, even when no word is shared with it.
Matched by the trigger alone, by vector (a foresight's vector is its trigger's:
foresight_embedding_text) and by words: the text names whom it is about, and a question about
that person is not yet a situation where the constraint matters."""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import replace

from app.construction import lexicon as lx
from app.construction.entity_resolution import normalize_key
from app.recollection import bm25, filters
from app.recollection.lucene import word_queries
from app.recollection.named_dates import asks_ahead
from app.recollection.speakers import names_in
from app.recollection.channels.base import EVIDENCE, Candidate, SearchContext, VectorPart, candidate
from app.store import term_stats
from app.store.vector import vector_query

MIN_SIMILARITY = 0.25  # below this a trigger is unrelated to the query
AGENDA_PINS = 3  # plans pinned among the first hits when asked what is coming up (AGENDA)
MORE_CONSTRAINTS = 2  # standing constraints pinned besides the first, when their triggers match
PERSON_SIMILARITY = 0.05  # ... unless the query names whom the constraint concerns (PEOPLE)
MAX_PEOPLE = 24  # names looked up from a query's words and word pairs

# Triggers near the query by vector and, when the query has words, those sharing its words:
# one part of the search's vector query (channels/nearest.py), both lists in its column.
NEAR = f"""
WITH n, score WHERE score >= $minScore AND {filters.FORESIGHT}
WITH n, score ORDER BY score DESC LIMIT $limit
WITH collect({{key: elementId(n), score: score, standing: n.kind = 'constraint', text: n.text,
                evidence: {EVIDENCE["foresight"]}}}) AS byVector
"""

# Found by the trigger's words; ranked by BM25 over text and trigger from the tenant's own
# statistics (app/recollection/bm25.py), so that among those a foresight about whom the query
# names comes first.
WORDS = f"""
CALL () {{
  {bm25.statistics("foresight")}
  {bm25.proposals("foresight_text", "lucene", carry="foresight_idf, foresight_avglen")}
  WHERE n.tenant = $tenant AND {filters.FORESIGHT}
  {bm25.score("foresight", carry="foresight_idf, foresight_avglen")}
  WITH n, bm25 ORDER BY bm25 DESC, n.trigger, n.text, elementId(n) LIMIT $limit
  RETURN collect({{key: elementId(n), standing: n.kind = 'constraint', text: n.text,
                   evidence: {EVIDENCE["foresight"]}}}) AS byWords
}}
"""

# The standing constraints of whom the query names, by the entity they concern (migration 0014),
# the nearest to the query of each person's, down to a lower bar than a trigger alone must
# clear: "a carol service at 7pm in December: can Walter come along by himself?" lies at cosine
# ~0.09 from Walter's "must not drive after dark" (its trigger lists situations, not December
# evenings), and of Walter's constraints that one is the nearest.
PEOPLE = f"""
CALL () {{
  UNWIND $people AS k
  MATCH (e:Entity {{tenant: $tenant, key: k}})<-[:CONCERNS]-(n:Foresight)
  WHERE n.tenant = $tenant AND n.kind = 'constraint' AND {filters.FORESIGHT}
  WITH e, n, vector.similarity.cosine(n.embedding, $vector) AS score
  WHERE score >= $personMin
  WITH e, n, score ORDER BY score DESC, elementId(n)
  WITH e, collect({{key: elementId(n), score: score, standing: true, text: n.text,
                    evidence: {EVIDENCE["foresight"]}}})[0] AS nearest
  RETURN collect(nearest) AS byPerson
}}
"""

# "What is coming up for Daniel?" names no situation a trigger lists: the plans and deadlines
# active at the moment asked about are the answer, the soonest first (a plan matters until the
# day after its last day, foresight.plan_until), those of whom the query names (concerned, or
# said by them) before others; of those whose day lies in the period the query names, when it
# names one (read ahead: named_dates.asks_ahead), a plan's day being the one before its end.
AGENDA = f"""
CALL () {{
  MATCH (n:Foresight {{tenant: $tenant}})
  WHERE n.kind IN ['plan', 'deadline'] AND {filters.FORESIGHT}
    AND ($heldFrom IS NULL OR n.validTo IS NULL OR (n.validTo > $heldFrom AND n.validTo <= $heldTo))
  WITH n, EXISTS {{ (n)-[:CONCERNS]->(e:Entity) WHERE e.key IN $people }}
          OR EXISTS {{ (n)-[:EVIDENCED_BY]->(t:Turn) WHERE toLower(t.speaker) IN $people }} AS named
  ORDER BY named DESC, n.validTo, n.text, elementId(n) LIMIT $limit
  RETURN collect({{key: elementId(n), standing: false, text: n.text, evidence: {EVIDENCE["foresight"]}}}) AS byDate
}}
"""
_RETURN = "RETURN {{byVector: byVector, byWords: {words}, byPerson: byPerson, byDate: {date}}} AS foresight"
BY_VECTOR = vector_query("Foresight", "foresight_embedding", NEAR + PEOPLE + _RETURN.format(words="[]", date="[]"))
BOTH = vector_query("Foresight", "foresight_embedding", NEAR + WORDS + PEOPLE
                    + _RETURN.format(words="byWords", date="[]"))
AGENDA_BY_VECTOR = vector_query("Foresight", "foresight_embedding", NEAR + PEOPLE + AGENDA
                                + _RETURN.format(words="[]", date="byDate"))
AGENDA_BOTH = vector_query("Foresight", "foresight_embedding", NEAR + WORDS + PEOPLE + AGENDA
                           + _RETURN.format(words="byWords", date="byDate"))


# A foresight's text begins with whom it is about: "Pim is allergic ...", "Maya's son has asthma".
# (a name of up to four words, not a clause: "Helen set a rule: No bonfires before 6pm, and never ..." had made
# its first 45 characters whom it is about, so any query saying "set" named her rule first)
_SUBJECT = re.compile(r"^([A-Z][^\s:,;]*(?:\s+[^\s:,;]+){0,3}?)\s+(?:is|are|has|have|does|doesn't|can't|cannot|gets|eats|keeps|will|won't|"
                      r"never|avoids|dislikes|needs|must|was|wants|plans)\b")


_NAME_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_TITLES = lx.SURNAME_TITLES[:4]  # (the four most said: each is one more lookup of a request)
_REQUEST_WORDS = frozenset({"plan", "plans", "planning", "planned"})
_NOT_NAMES = frozenset("i i'm i've i'll monday tuesday wednesday thursday friday saturday sunday".split())


def named_keys(query: str) -> list[str]:
    """Entity keys the query's words and word pairs could be (entity_resolution.normalize_key:
    "Walter", "Auntie Ros", "walter's"), looked up by the index on (tenant, key); of a long
    query, the capitalised words and pairs first."""
    words = [re.sub(r"['’]s$", "", w) for w in _NAME_WORD.findall(query)]
    pairs = [f"{a} {b}" for a, b in zip(words, words[1:])]
    ordered = sorted(words + pairs, key=lambda w: (not w[:1].isupper(), " " in w))
    keys = list(dict.fromkeys(k for w in ordered if (k := normalize_key(w))))
    # A surname asked after is also whom a title names ("the Okafor table": Mr Okafor), looked up
    # after every word the query says.
    titled = [f"{t} {normalize_key(w)}" for w in words[1:] if w[:1].isupper() and w.lower() not in _NOT_NAMES
              for t in _TITLES]
    return list(dict.fromkeys(keys[:MAX_PEOPLE] + titled))[:MAX_PEOPLE + 8]


# A question after a fact of someone's ("Where does Maya live?", "What does Maya practise every
# evening?", "Tell me about Maya") is no situation where her constraints matter, unless it asks
# what may or should be done ("Which desserts can Walter have?"). Anything else is taken for
# one: a request ("Book a table for Maya"), a plan or an event ("A carol service at 7pm in
# December: can Walter come along?", "Hannah's friends invite her to the slopes ...").
_FACT_QUESTION = re.compile(
    r"^\s*(?:what|where|when|who|whom|whose|which|why|how|did|does|do|is|are|was|were|has|had|have|"
    r"tell\s+me\s+about)\b", re.IGNORECASE)
_MAY_OR_SHOULD = re.compile(
    r"\b(?:can|can't|could|should|shouldn't|would|may|might|must|ok|okay|safe|fine|allowed|"
    r"suggest|recommend|plan|book|organi[sz]e|invite|join)\b", re.IGNORECASE)


def situation(query: str) -> bool:
    """Whether `query` asks about something to do or to come, where a named person's standing
    constraints matter, not only about that person (PEOPLE)."""
    return not _FACT_QUESTION.match(query) or bool(_MAY_OR_SHOULD.search(query))


# A question after one thing's day, not after what is ahead: "When is the Leverhulme internal
# deadline?", "What's the deadline for the grant?" (not "When is my next deadline?").
_ONE_THING = re.compile(r"^\s*when\b(?!.*\b(?:next|coming\s+up|upcoming|anything)\b)|"
                        r"\b(?:the|my|our|his|her|their)\s+(?:[\w'-]+\s+){1,3}(?:deadline|due\s+date)\b|"
                        r"\bdeadline\s+(?:for|of)\s+(?:the\s+)?\w", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9][a-z0-9'-]+")
_AGENDA_WORDS = frozenset("""when what whats is are the my our his her their deadline deadlines due date
dates next coming upcoming ahead plan plans planned schedule calendar agenda reminder reminders for of
does do did have has need still""".split())


def _one_thing(query: str) -> set[str]:
    """The words of the one thing whose day `query` asks after; empty when it asks what is ahead."""
    if not _ONE_THING.search(query):
        return set()
    return {w for w in _WORD.findall(query.lower()) if len(w) > 2 and w not in _AGENDA_WORDS
            and w not in lx.STOPWORDS and w not in lx.DATE_WORDS}


_CAPITALISED = re.compile(r"(?<=\s)(?-i:[A-Z])[\w'’-]*")


@lru_cache(maxsize=256)
def _names_said(query: str) -> tuple[frozenset[str], frozenset[str]]:
    """The query's capitalised words but its first, lower-cased and without an owner's "'s"; and
    their stems (ctx.words are stems). Read twice a search (the vector part, then the ranking)."""
    said = {re.sub(r"['’]s$", "", w.lower()) for w in _CAPITALISED.findall(query)}
    said -= lx.DATE_WORDS | lx.WEEKDAYS | lx.MONTHS | {"i", "i'm", "i've", "i'll"}  # (a day is a plan's word)
    return frozenset(said), frozenset(term_stats.stem(n) for n in said)


def _subject(text: str | None) -> set[str]:
    m = _SUBJECT.match(text or "")
    return {m.group(1)} if m else set()


class ForesightChannel:
    name = "foresight"

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        if "foresight" not in ctx.request.kinds:
            return []
        # Cosine of a score: the index reports (1 + cos) / 2 for cosine indexes.
        query = ctx.text
        ahead = asks_ahead(query)
        params = dict(fetch=ctx.depth * 3, limit=ctx.depth, minScore=(1 + MIN_SIMILARITY) / 2,
                      people=named_keys(query) if ahead or situation(query) else [],
                      personMin=(1 + PERSON_SIMILARITY) / 2)
        # (a request's "plan" is no situation: every agenda trigger lists "plans"; nor are the names
        # it says, which every trigger of a plan of theirs holds: "Karin will eat some too" came
        # first for "What is Karin's basal insulin dose now?". Whose constraints come by PEOPLE.)
        names, named = _names_said(query)
        terms = [t for t in ctx.lucene_terms if t.lower() not in _REQUEST_WORDS
                 and re.sub(r"['’]s$", "", t.lower()) not in names]
        words = [w for w in ctx.words if w not in _REQUEST_WORDS and w not in named]
        if terms and words:
            return [VectorPart("foresight", AGENDA_BOTH if ahead else BOTH, dict(
                params, lucene=word_queries(terms, ["trigger"], ctx.graph.tenant),
                perWord=bm25.per_word(ctx.depth * 3, len(terms))))]
        return [VectorPart("foresight", AGENDA_BY_VECTOR if ahead else BY_VECTOR, params)]

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        if "foresight" not in ctx.request.kinds:
            return []
        record = await ctx.nearest("foresight")
        seen: dict[str, Candidate] = {}
        # Asked what is ahead: what is ahead comes first, by date, and the soonest AGENDA_PINS are
        # pinned among the first hits (fusion.ranked): they are the answer, which the turns'
        # ranker, fitted on questions about the past, would not know.
        dated = [candidate("foresight", r, 1.0 - rank * 1e-3, "ahead, the soonest first")
                 for rank, r in enumerate(record.get("byDate") or ())]
        # They are the answer, first (fusion._answers_first): "What is coming up next week?" had a
        # turn of last week's on-call ahead of them. Asked after one thing's day ("When is the
        # Leverhulme internal deadline?"), only those that name it are (a visa appointment and a
        # dinner, the soonest, had taken the first three places).
        which = _one_thing(ctx.request.query)
        texts = {r["key"]: (r.get("text") or "").lower() for r in record.get("byDate") or ()} if which else {}
        answers = [c for c in dated if not which or which & set(_WORD.findall(texts.get(c.key, "")))]
        dated = [replace(c, pin=True, answer=True) if c in answers[:AGENDA_PINS] else c for c in dated]
        for r in record["byVector"]:
            seen[r["key"]] = candidate("foresight", r, float(r["score"]), "trigger matches")
        for rank, r in enumerate(record["byWords"]):
            if r["key"] not in seen:
                seen[r["key"]] = candidate("foresight", r, 0.5 - rank * 1e-3, "words match")
        # Below the trigger's bar: after every foresight that clears it, never pinned.
        weak = sorted((r for r in record.get("byPerson") or () if r["key"] not in seen),
                      key=lambda r: (-r["score"], r["key"]))
        weak = [replace(candidate("foresight", r, float(r["score"]), "a constraint of whom the query names"),
                        weak=True) for r in weak]
        # The trigger says when a foresight matters, not for whom: of those that match, the ones
        # said by a person the query names come first ("a restaurant for Maya": Maya's allergy
        # before Sam's diet, which may match the trigger better). Then standing constraints
        # before plans: the first is pinned among the hits (fusion.py), and "dinner with Priya
        # when Tom visits" must bring her shellfish allergy, not only the plan of the visit.
        # Whom each is about: who said it, and whom its text names first ("Pim is allergic to
        # tree nuts", said by his mother, is about Pim too).
        rows = {r["key"]: r for r in [*record["byVector"], *record["byWords"], *(record.get("byDate") or ())]}
        about = {c.key: {who for _, who in c.speakers} | _subject(rows[c.key].get("text"))
                 for c in [*seen.values(), *dated]}
        named = names_in(set().union(*about.values()), ctx.text)
        standing = {k for k, r in rows.items() if r.get("standing")}

        # Of standing constraints, those whose trigger or text hold a word of the query before those
        # near it by meaning alone ("Plan the menu for the reception": the allergies, whose
        # triggers list menus, before a mother's wish to be phoned, nearer by the embedding).
        worded = {r["key"] for r in record["byWords"]}

        def order(c: Candidate):
            return not (about[c.key] & named), c.key not in standing, c.key not in worded, -c.score, c.key

        # A dated plan matched by its trigger too keeps its place by date; the weak are
        # constraints, never dated.
        first = {c.key for c in dated}
        ranked = (dated + sorted((c for c in seen.values() if c.key not in first), key=order) + weak)[:ctx.depth]
        # The first is pinned (fusion.py); so is the standing constraint of another person the
        # query names: "Callum is booking a restaurant for Ines" must bring Ines's peanut allergy
        # though Callum's not drinking matches the trigger better, and Callum's as well.
        strong = [c for c in ranked if not c.weak]  # a prefix of ranked: the weak come last
        whose = about[strong[0].key] if strong else set()
        for i, c in enumerate(strong[1:], start=1):
            others = (about[c.key] & named) - whose
            if c.key in standing and others:
                ranked[i] = replace(c, pin=True)
                break
        # Every standing constraint whose trigger matches (by meaning or by its words), up to
        # MORE_CONSTRAINTS after the first: "suggest a restaurant" brought one of Maya's peanut
        # allergy, shellfish allergy and vegetarian diet, the others below the answers (or not
        # at all under a small tokenBudget).
        # Of whom the query names, when it names someone ("Plan a run for Tomás": Mei's sore knee,
        # pinned, pushed his clearance to run out of the first five).
        # (Only of whom holds one: "Linda wants to bake a cake", Linda of a plan to visit, must still
        # bring the baby's milk allergy.)
        holders = named & set().union(*(about[c.key] for c in strong if c.key in standing))
        more = [i for i, c in enumerate(strong[1:], start=1)
                if c.key in standing and not ranked[i].pin
                and (not holders or about[c.key] & holders)][:MORE_CONSTRAINTS]
        for i in more:
            ranked[i] = replace(ranked[i], pin=True)
        query = ctx.text
        if not (asks_ahead(query) or situation(query)):
            # A question after a fact ("Who is Raj's doctor?"): what matches is a hit like any
            # other, by its turns, not pinned over the answer ("Raj has diabetes": its trigger
            # lists doctors); and only one that says a word of what it asks, not only whom ("Karin
            # will eat some too", near by its trigger's "Karin", came first for "What is Karin's
            # basal insulin dose now?" and for 28 other questions of hers).
            # (stems both: "performances" says "perform")
            asked = {w for w in ctx.words if len(w) > 2 and w not in lx.STOPWORDS} - _names_said(query)[1]
            # (a question of no such word, "When is the get-in?", keeps them all)
            ranked = [replace(c, free=True, pin=False) for c in ranked if not asked or c.key in rows
                      and asked & {term_stats.stem(w) for w in term_stats.words(rows[c.key].get("text"))}]
        return ranked
