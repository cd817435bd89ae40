"""Entity resolution within a group: the same person, place or thing under several names
becomes one node, and every merge is recorded so it can be audited (and undone by hand).

An entity is its group's (`Entity.groupKey`: the group's id, '' for conversations without one):
three families' "Anna" are three people, and one family's "Anna lives in York" closes nothing of
another's. Every query here reads the entities of the group the graph is bound to
(TenantGraph.in_group); a group's conversations and users share its entities.

Order of evidence, strongest first:
  key      the normalised name equals an entity's key or one of its alias keys;
  role     a one-holder role under another word: "Priya's dad" is who "Priya's father" is;
  prefix   a person's short name is the unique prefix of a known person ("Mel" -> "Melanie") or
           surname of one ("Okafor" -> "David Okafor"), or the name with or without a title ("Dr
           Patel" -> "Dr Anita Patel"), an organisation's the first words of one ("Acme" -> "Acme
           Logistics", either said first);
  vector   the name's embedding is within VECTOR_MERGE_THRESHOLD of an entity of the same type.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np

from app.construction import lexicon as lx
from app.construction.role_aliases import canonical_role, role_keys
from app.domain.models import EntityDraft
from app.store.graph import TenantGraph
from app.store.vector import vector_query

_PUNCT = re.compile(r"[^\w\s']+")
_SPACES = re.compile(r"\s+")
# Compared with the vector index's score, (1 + cosine) / 2: 0.95 is a cosine of 0.90. Above it
# lie "New York" / "New York City" (0.948), "NYC" / "New York" (0.938), "London Luton" / "Luton"
# (0.948), but also "Royal Shrewsbury" (a hospital) / "Shrewsbury" (0.924) and "North Hobart" /
# "Hobart" (0.921); "Maya" / "Mia" lie at 0.40. Measured on the written and LoCoMo sets'
# entities (docs/evaluation-notes.md); a cosine of 0.95 would keep only "Airbnb" / "Airbnbs".
VECTOR_MERGE_THRESHOLD = 0.95

BY_KEYS = """
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey}) WHERE e.key IN $keys
RETURN e.id AS id, e.key AS key, e.name AS name, e.type AS type, e.aliasKeys AS aliasKeys,
       coalesce(e.splitKeys, []) AS splitKeys
UNION
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey}) WHERE any(k IN e.aliasKeys WHERE k IN $keys)
RETURN e.id AS id, e.key AS key, e.name AS name, e.type AS type, e.aliasKeys AS aliasKeys,
       coalesce(e.splitKeys, []) AS splitKeys
"""

# An entity by its name or one of its aliases, its own name first (one entity's name may be
# another's alias): `e` bound to at most one; $key from normalize_key. What the API's
# entity(name) reads and what entity edits act on (entity_edits.py). In the group $groupId;
# without one, of all groups knowing the name, the entity of no group, else the one most
# episodes mention (a client of several groups names the group to choose).
NAMED_ENTITY = """MATCH (e:Entity {tenant: $tenant}) WHERE (e.key = $key OR $key IN e.aliasKeys)
  AND ($groupId IS NULL OR e.groupId = $groupId)
WITH e ORDER BY CASE WHEN e.key = $key THEN 0 ELSE 1 END, CASE WHEN e.groupId IS NULL THEN 0 ELSE 1 END,
     COUNT { (e)<-[:MENTIONS]-() } DESC, e.id LIMIT 1"""

# `splitKeys`: names a client split off the entity (entity_split.py), never merged into it
# again by a guess, even once the entity they became is forgotten.
PERSON_PREFIX = """
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey, type: 'person'}) WHERE e.key STARTS WITH $prefix
RETURN e.key AS key, e.name AS name, coalesce(e.splitKeys, []) AS splitKeys LIMIT 3
"""

# ... or by a short form of the given name, with none known by it ("Tom" for "Thomas Okafor", "Mr Thomas
# Okafor"): the $prefixes are the full given names, with and without a title, one index seek each.
PERSON_SHORTENED = """
UNWIND $prefixes AS prefix
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey, type: 'person'}) WHERE e.key STARTS WITH prefix
RETURN DISTINCT e.key AS key, e.name AS name, coalesce(e.splitKeys, []) AS splitKeys LIMIT 3
"""

# A person called by a surname ("Okafor" for "David Okafor", "Mr David Okafor").
PERSON_SURNAME = """
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey, type: 'person'})
WHERE e.key ENDS WITH ' ' + $surname AND size(split(e.key, ' ')) IN [2, 3]
RETURN e.key AS key, e.name AS name, coalesce(e.splitKeys, []) AS splitKeys LIMIT 3
"""

# A person named with a title and a surname ("Dr Patel") known by the title, a given name and that
# surname ("Dr Anita Patel"), or by one of $keys: the other ways the name is said, with or without
# its title ("Helen Jones" for "Mrs Helen Jones", "Dr Patel" for "Dr Anita Patel"); or a given name
# alone ($given) known with a title and a surname ("Elaine" for "Dr Elaine Whitcombe").
PERSON_TITLED = """
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey, type: 'person'})
WHERE ($title <> '' AND e.key ENDS WITH ' ' + $surname
       AND (size(split(e.key, ' ')) = 2 OR (split(e.key, ' ')[0] IN $titleForms AND size(split(e.key, ' ')) = 3)))
   OR e.key IN $keys
   OR ($given <> '' AND size(split(e.key, ' ')) = 3 AND split(e.key, ' ')[1] = $given
       AND split(e.key, ' ')[0] IN $titles)
RETURN e.key AS key, e.name AS name, coalesce(e.splitKeys, []) AS splitKeys LIMIT 3
"""

# An organisation called by its first words ("Acme" for "Acme Logistics"): those whose key goes on
# from $prefix, and those whose key is one of $heads, the first words of a longer name said now.
ORG_PREFIX = """
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey}) WHERE e.type IN $types
  AND (e.key STARTS WITH $prefix OR e.key IN $heads)
RETURN e.key AS key, e.name AS name, e.type AS type, coalesce(e.splitKeys, []) AS splitKeys LIMIT 3
"""
# A firm's name is often read as a place's or a thing's ("turf comes from Meadowline Turf", "a skip
# from Hilltop Skips"): a proper name of several words of any of these types may be the one its
# first word shortens, but no street ("Birch" is no "Birch Lane").
_FIRM_TYPES = ("organization", "place", "thing")

# A street said without a house's number ("Elm Road") is the one address known on it ("14 Elm
# Road"): places whose key is a number and then the street's.
ADDRESS_ON = """
MATCH (e:Entity {tenant: $tenant, groupKey: $groupKey, type: 'place'})
WHERE e.key ENDS WITH $street AND e.key =~ '[0-9]{1,4}[a-z]? .*'
RETURN e.key AS key, e.name AS name, coalesce(e.splitKeys, []) AS splitKeys LIMIT 3
"""

BY_VECTOR = vector_query("Entity", "entity_embedding", """
RETURN n.key AS key, n.name AS name, n.type AS type, coalesce(n.splitKeys, []) AS splitKeys, score
""", limit="3")


def thing_key(name: str, group_id: str | None) -> str:
    """The timeline key of a subject no entity names: its words, in its group ("billing@atlas")."""
    return timeline_key(normalize_key(name), group_id)


def timeline_key(key: str, group_id: str | None) -> str:
    """The timeline key (`Fact.subjectKey`) of what is said of the entity or thing of `key` in
    a group: "anna@family-2", as entities and timelines are a group's; a key alone without
    one. A key's words hold no "@" (normalize_key), so the first "@" ends it (timeline_of)."""
    return f"{key}@{group_id}" if group_id else key


def timeline_of(subject_key: str) -> str:
    """The entity or thing key a timeline key is of (timeline_key)."""
    return subject_key.partition("@")[0]


def normalize_key(name: str) -> str:
    s = unicodedata.normalize("NFKC", name).casefold().strip()
    s = _PUNCT.sub(" ", s)
    s = _SPACES.sub(" ", s).strip()
    if s.startswith("the "):
        s = s[4:]
    return s


@dataclass
class ResolvedEntity:
    key: str
    name: str
    type: str
    aliases: set[str] = field(default_factory=set)
    merges: list[dict] = field(default_factory=list)  # audit records of surface forms merged in
    is_new: bool = True
    # Keys of one-holder role aliases it takes from whoever holds them (role_aliases.py).
    takes: set[str] = field(default_factory=set)


@dataclass
class Resolution:
    entities: dict[str, ResolvedEntity]  # by key
    surface_to_key: dict[str, str]  # every surface form seen (normalised) -> entity key

    def key_of(self, name: str) -> str | None:
        return self.surface_to_key.get(normalize_key(name))

    def concerned(self, text: str) -> str | None:
        """The key of the entity a foresight is about: the one whose name or alias, as written,
        its text begins with ("Maya is allergic to peanuts"), the longest such name first. Not
        "Maya's son has asthma": that is her son's (cypher/migrations/0014 links old foresight
        by the same rule)."""
        names = sorted(((n, e.key) for e in self.entities.values() for n in {e.name, *e.aliases} if n),
                       key=lambda x: -len(x[0]))
        first = next(((n, k) for n, k in names if text.startswith(n + " ")), None)
        if first is None:
            # "Leo's IELTS exam is on 14 November", "Sofia's class trip": a thing of theirs is
            # theirs to be reminded of; a person of theirs ("Maya's son") is not them.
            first = next(((n, k) for n, k in names if (m := re.match(rf"{re.escape(n)}['’]s (\w+)", text))
                          and m.group(1).lower() not in lx.KIN | lx.ORG_ROLES | lx.PROFESSIONS | lx.PETS), None)
        if first is not None and text.startswith(first[0] + " asked ") and not text.startswith(
                first[0] + " asked to be reminded"):  # (a reminder is the asker's: "... to book the Porto flights")
            # "Hannah asked not to contact Ana's current employer": an instruction about Ana,
            # asked after by her name ("Can I call Ana's employer?"), not about who gave it.
            # Not where ("don't book anything for us on 24 December, we'll be in Hamburg" is the
            # asker's), nor when the asker is named again in it.
            rest = text[len(first[0]):]
            others = {k for n, k in names if k != first[1] and self.entities[k].type in ("person", "organization")
                      and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", rest)}
            if len(others) == 1 and not re.search(rf"(?<!\w){re.escape(first[0])}(?!\w)", rest):
                return others.pop()
        return first[1] if first else None


async def resolve_entities(graph: TenantGraph, drafts: list[EntityDraft],
                           embed, speakers: frozenset[str] = frozenset()) -> Resolution:
    """Map every draft (and its aliases) to an entity key, existing or new. `speakers`: keys
    of the episode's speaker names, which the client gave: one is the person of that name or
    alias, never a nickname or a look-alike of another ("Dan" is not "Dana")."""
    now = datetime.now(timezone.utc).isoformat()
    surfaces: dict[str, EntityDraft] = {}
    said: dict[str, str] = {}  # each key as the episode wrote it, a draft's own name first
    for d in drafts:
        for n in [d.name, *d.aliases]:
            k = normalize_key(n)
            if k:
                surfaces.setdefault(k, d)
                said.setdefault(k, n)
    # "Priya's dad" is whoever is "Priya's father": a one-holder role under any of its words.
    synonyms = {sk: sorted(role_keys(sk) - {sk}) for sk, d in surfaces.items() if sk == normalize_key(d.name)}
    keys = set(surfaces) | {r for rs in synonyms.values() for r in rs}
    rows = await graph.read(BY_KEYS, keys=sorted(keys)) if surfaces else []
    known = _owners(rows)
    by_role = set()
    for sk, rs in synonyms.items():
        if sk not in known and (holder := next((known[r] for r in rs if r in known), None)):
            known[sk] = holder
            by_role.add(sk)

    out: dict[str, ResolvedEntity] = {}
    surface_to_key: dict[str, str] = {}

    def attach(surface_key: str, draft: EntityDraft, target_key: str, name: str, etype: str,
               is_new: bool, method: str | None, score: float | None) -> None:
        ent = out.setdefault(target_key, ResolvedEntity(target_key, name, etype, is_new=is_new))
        surface_to_key[surface_key] = target_key
        surface = said.get(surface_key) or (draft.name if normalize_key(draft.name) == surface_key else surface_key)
        if surface_key != target_key:
            ent.aliases.add(surface)
            holder, role = known.get(surface_key), role_keys(surface_key)
            if role and (holder is None or holder["key"] != target_key):
                ent.takes |= role
                ent.aliases.add(canonical_role(surface_key))
            if method:
                ent.merges.append({"surface": surface, "into": target_key, "method": method,
                                   "score": score, "at": now})

    unresolved: list[tuple[str, EntityDraft]] = []
    for sk, d in surfaces.items():
        hit = known.get(sk)
        if hit and role_keys(sk) and sk != normalize_key(d.name):
            # "My boss Sofia Rossi" while Jonas is "Maya's boss": the role goes with the name.
            named = known.get(normalize_key(d.name))
            if named is None:
                unresolved.append((sk, d))
                continue
            if named["key"] != hit["key"]:
                attach(sk, d, named["key"], named["name"], named["type"], False, None, None)
                continue
        if hit:
            attach(sk, d, hit["key"], hit["name"], hit["type"], False,
                   "role" if sk in by_role else "key" if sk != hit["key"] else None, 1.0)
        else:
            unresolved.append((sk, d))

    # Drafts of one episode that share a draft object are one entity: name first, aliases after.
    _short_org_names(unresolved, speakers)
    _short_person_names(unresolved, speakers)
    _streets_of_addresses(unresolved)
    unresolved.sort(key=lambda u: u[0] != normalize_key(u[1].name))
    by_draft: dict[int, str] = {}
    still: list[tuple[str, EntityDraft]] = []
    for sk, d in unresolved:
        if id(d) in by_draft:
            attach(sk, d, by_draft[id(d)], out[by_draft[id(d)]].name, d.type, True, "alias", 1.0)
            continue
        # A bare one-word name of unknown type may still be a nickname of a known person.
        if sk not in speakers and d.type in ("person", "thing") and len(sk) >= 3 and " " not in sk \
                and not d.name.isupper():  # an acronym ("PRS") is no nickname
            cands = await graph.read(PERSON_PREFIX, prefix=sk)
            cands = [c for c in cands if c["key"] != sk and sk not in c["splitKeys"]]
            if not cands and sk in lx.SHORT_GIVEN:
                cands = [c for c in await graph.read(PERSON_SHORTENED, prefixes=shortened(sk)) if sk not in c["splitKeys"]]
            if not cands and sk not in lx.GIVEN_NAMES and d.name[:1].isupper():
                # ... or a surname of one: "Okafor" for "David Okafor", "Harwood" for "Mike Harwood"
                cands = [c for c in await graph.read(PERSON_SURNAME, surname=sk)
                         if c["key"] != sk and sk not in c["splitKeys"]]
            if len(cands) == 1:
                attach(sk, d, cands[0]["key"], cands[0]["name"], "person", False, "prefix", None)
                by_draft[id(d)] = cands[0]["key"]
                continue
        if (titled := await _titled_person(graph, sk, d, speakers)) is not None:
            attach(sk, d, titled["key"], titled["name"], "person", False, "prefix", None)
            by_draft[id(d)] = titled["key"]
            continue
        if _is_street(sk, d) and (home := await _address_on(graph, sk)):
            attach(sk, d, home["key"], home["name"], "place", False, "prefix", None)
            by_draft[id(d)] = home["key"]
            continue
        if sk == normalize_key(d.name) and (org := await _org_of_name(graph, sk, d, speakers)):
            attach(sk, d, org["key"], org["name"], org.get("type", "organization"), False, "prefix", None)
            by_draft[id(d)] = org["key"]
            continue
        still.append((sk, d))

    if still:
        vecs = await embed([d.name for _, d in still])
        for (sk, d), v in zip(still, vecs):
            if id(d) in by_draft:
                attach(sk, d, by_draft[id(d)], out[by_draft[id(d)]].name, d.type, True, "alias", 1.0)
                continue
            # A relative named by kinship is found by its words alone: "Helen's dad" lies within
            # the merge threshold of "Helen's mother" by meaning, and is not her. (The vector is
            # the draft's name's, which an alias of a known name finds its entity by.)
            by_kin = normalize_key(d.name).rpartition("'s ")[2] in lx.KIN
            rows = [] if sk in speakers or by_kin else await graph.read_vector(BY_VECTOR,
                                                                                vector=[float(x) for x in v])
            best = next((r for r in rows if r["score"] >= VECTOR_MERGE_THRESHOLD and r["type"] == d.type
                         and sk not in r["splitKeys"] and _same_numbers(sk, r["key"])), None)
            if best:
                attach(sk, d, best["key"], best["name"], best["type"], False, "vector",
                       round(float(best["score"]), 4))
                by_draft[id(d)] = best["key"]
            else:
                attach(sk, d, sk, d.name, d.type, True, None, None)
                out[sk].embedding = np.asarray(v)  # type: ignore[attr-defined]
                by_draft[id(d)] = sk

    # "Dad's doctor", Dad being Raj: the doctor is Raj's doctor as well, and takes that role
    # from whoever held it ("Raj's doctor is Dr. Lee" a week before).
    for sk, tk in list(surface_to_key.items()):
        owner, _, kin = sk.rpartition("'s ")
        whose = surface_to_key.get(owner)
        if role_keys(sk) and whose and whose != owner and whose != tk:
            name = f"{out[whose].name}'s {kin}"
            if normalize_key(name) not in surface_to_key:
                attach(normalize_key(name), EntityDraft(name=name, type="person"), tk, out[tk].name, out[tk].type,
                       out[tk].is_new, "role", 1.0)
    return Resolution(out, surface_to_key)


_NUMBER = re.compile(r"\d+")


async def _titled_person(graph: TenantGraph, sk: str, d: EntityDraft, speakers: frozenset[str]) -> dict | None:
    """The one known person a name with or without a title is: "Dr Patel" or "Anita Patel" is
    "Dr Anita Patel", "Helen Jones" is "Mrs Helen Jones", "Cousin Yusuf" is "Yusuf", and the other
    way round; None when none or several are."""
    words = sk.split()
    # (a speaker of a full name is the one named before with a title: "Emeka Okafor", speaking, is
    # the "Dr Emeka Okafor" his student named; else a speaker is no one else)
    full = len(words) == 2 and words[0] in lx.GIVEN_NAMES and words[0] not in lx.TITLES
    if d.type != "person" or (sk in speakers and not full) or not 1 <= len(words) <= 3:
        return None
    title, surname, keys, given = "", "", [], ""
    if len(words) == 1:
        if sk not in lx.GIVEN_NAMES:
            return None
        keys = [f"{k} {sk}" for k in sorted(lx.KIN_TITLES)]  # ("Yusuf", known as "Cousin Yusuf")
        given = sk  # ("Elaine", known as "Dr Elaine Whitcombe")
    elif words[0] in lx.KIN_TITLES and len(words) == 2:
        keys = [words[1]]  # ("Cousin Yusuf", known as "Yusuf")
    elif words[0] in lx.TITLES and len(words) == 2:
        title, surname = words  # ("Dr Patel")
    elif words[0] in lx.TITLES:
        # ("Dr Anita Patel"; "Councillor Margaret Ellison", known as "Cllr Ellison")
        keys = [f"{t} {words[2]}" for t in lx.TITLE_FORMS.get(words[0], (words[0],))] + [f"{words[1]} {words[2]}"]
    elif len(words) == 2 and words[0] in lx.GIVEN_NAMES:
        keys = [f"{t} {sk}" for t in sorted(lx.TITLES)]  # ("Helen Jones")
        # ... and by a title fit for her or him with the surname ("Margaret Okafor", "Mrs Okafor" said before)
        keys += [f"{t} {words[1]}" for t in lx.SURNAME_TITLES if _fits(t, words[0])]
        # ... and by the name it shortens ("Tom Okafor": "Thomas Okafor", "Mr Thomas Okafor")
        longer = [f"{full} {words[1]}" for full in lx.SHORT_GIVEN.get(words[0], ())]
        keys += longer + [f"{t} {name}" for name in longer for t in sorted(lx.TITLES)]
    else:
        return None
    rows = await graph.read(PERSON_TITLED, title=title, surname=surname, keys=keys, given=given,
                            titles=sorted(lx.TITLES), titleForms=list(lx.TITLE_FORMS.get(title, (title,))))
    # ("Mrs Okafor" is "Margaret Okafor", not "David Okafor": a title and a given name of one sex)
    rows = [r for r in rows if r["key"] != sk and sk not in r["splitKeys"]
            and (not title or len(r["key"].split()) == 3 or _fits(title, r["key"].split()[0]))]
    return rows[0] if len(rows) == 1 else None


_WOMENS_TITLES, _MENS_TITLES = frozenset("mrs ms miss dame lady sister sra mme".split()), frozenset("mr sir lord".split())


def _fits(title: str, given: str) -> bool:
    """Whether a title may be said of one of that given name: "Mrs" of Margaret, "Mr" of David, "Dr" of either
    (a name of neither list: a given name at all)."""
    if title in _WOMENS_TITLES:
        return given in lx.FEMALE_NAMES
    if title in _MENS_TITLES:
        return given in lx.MALE_NAMES
    return given in lx.GIVEN_NAMES


def _same_numbers(a: str, b: str) -> bool:
    """Names whose numbers differ are two things, however near their vectors: tickets "QL-131"
    and "QL-118", "Room 101" and "Room 102", "iPhone 14" and "iPhone 15"."""
    return _NUMBER.findall(a) == _NUMBER.findall(b)


def _may_be_org(d: EntityDraft, speakers: frozenset[str]) -> bool:
    """A draft that may be an organisation under its first words: a proper name (never a
    lower-case word, "the bank") named as one, of no known type, taken for a person on a weak
    cue ("Acme wants a discount") when it is one word and no given name or speaker's, or for a
    place ("the turf from Meadowline") when it is one word."""
    if not d.name[:1].isupper():
        return False
    key = normalize_key(d.name)
    if d.type == "person":
        return " " not in key and key not in lx.GIVEN_NAMES and key not in speakers
    return d.type in ("organization", "thing") or (d.type == "place" and " " not in key
                                                   and key not in lx.CITIES | lx.COUNTRIES | lx.US_STATES)


async def _org_of_name(graph: TenantGraph, sk: str, d: EntityDraft, speakers: frozenset[str]) -> dict | None:
    """The one known organisation the name `sk` is the first words of, or whose first words it
    is (a longer name said after the short one: "Acme", then "Acme Logistics"); None when none
    or several are ("Acme" with "Acme Foods" and "Acme Logistics" known is neither)."""
    if not _may_be_org(d, speakers):
        return None
    words = sk.split()
    heads = [" ".join(words[:n]) for n in range(1, len(words))] if d.type == "organization" else []
    rows = await graph.read(ORG_PREFIX, prefix=sk + " ", heads=heads, types=list(_FIRM_TYPES))
    rows = [r for r in rows if r["key"] != sk and sk not in r["splitKeys"] and r["name"][:1].isupper()
            and (r["type"] == "organization" or _firm_name(r["name"]))]
    return rows[0] if len(rows) == 1 else None


def _firm_name(name: str) -> bool:
    """A proper name of several capitalised words, no street's: "Meadowline Turf", "Hilltop Skips"."""
    words = name.split()
    return (len(words) > 1 and all(w[:1].isupper() for w in words)
            and words[-1].lower() not in lx.STREETS | lx.PLACE_SUFFIXES)


def _is_street(sk: str, d: EntityDraft) -> bool:
    """A street's name, said alone: "Elm Road", not "14 Elm Road" nor "Abbey Road Studios"."""
    words = sk.split()
    return (d.type == "place" and len(words) > 1 and words[-1] in lx.STREETS and sk == normalize_key(d.name)
            and not _HOUSE_NUMBER.match(sk))


_HOUSE_NUMBER = re.compile(r"\d{1,4}[a-z]?\s")


async def _address_on(graph: TenantGraph, sk: str) -> dict | None:
    rows = [r for r in await graph.read(ADDRESS_ON, street=" " + sk) if sk not in r["splitKeys"]]
    return rows[0] if len(rows) == 1 else None


def _streets_of_addresses(unresolved: list[tuple[str, EntityDraft]]) -> None:
    """An episode's "Elm Road" is its "14 Elm Road" when that is its one address on the street."""
    homes = [(sk, d) for sk, d in unresolved if d.type == "place" and _HOUSE_NUMBER.match(sk)]
    for i, (sk, d) in enumerate(unresolved):
        if _is_street(sk, d):
            on = [h for h in homes if h[0].endswith(" " + sk)]
            if len(on) == 1:
                unresolved[i] = (sk, on[0][1])


def _short_org_names(unresolved: list[tuple[str, EntityDraft]], speakers: frozenset[str]) -> None:
    """An episode's "Acme" is its "Acme Logistics" when that is its one organisation so named:
    the short name becomes an alias of the long one's draft."""
    orgs = [(sk, d) for sk, d in unresolved if sk == normalize_key(d.name)
            and (d.type == "organization" or d.type in _FIRM_TYPES and _firm_name(d.name))]
    for i, (sk, d) in enumerate(unresolved):
        if sk != normalize_key(d.name) or not _may_be_org(d, speakers):
            continue
        longer = [o for o in orgs if o[0].startswith(sk + " ") and o[1].name[:1].isupper()]
        if len(longer) == 1:
            unresolved[i] = (sk, longer[0][1])


def shortened(short: str) -> list[str]:
    """The keys' beginnings of the names a short given name may stand for ("tom": "thomas ", "mr thomas ")."""
    return [f"{t}{full} " for full in lx.SHORT_GIVEN.get(short, ()) for t in _TITLED]


_TITLED = ("", *(f"{t} " for t in sorted(lx.TITLES)))  # (a name said without a title, and with each)


def _short_person_names(unresolved: list[tuple[str, EntityDraft]], speakers: frozenset[str]) -> None:
    """An episode's "Gordon" is its "Gordon Pike" when he is its one person so named ("Gordon at
    number 16, Gordon Pike": the first name said first had become a person of its own, and every
    later "Gordon" his), its "Okafor" its "David Okafor": the short name becomes an alias of the
    long one's draft, as a short name said after a known person's is (PERSON_PREFIX, PERSON_SURNAME)."""
    people = {sk: d for sk, d in unresolved if d.type == "person" and sk == normalize_key(d.name) and " " in sk}
    for i, (sk, d) in enumerate(unresolved):
        words = sk.split()
        if sk in people and len(words) == 2 and words[0] in lx.GIVEN_NAMES and sk not in speakers:
            # ("External examiner will be Professor Ingrid Larsen" "Ingrid Larsen as in the Larsen lab?")
            titled = [p for k, p in people.items() if len(k.split()) == 3 and k.split()[0] in lx.TITLES
                      and k.endswith(" " + sk)]
            if len(titled) == 1:
                unresolved[i] = (sk, titled[0])
                continue
        if sk != normalize_key(d.name) or " " in sk or sk in speakers or not d.name[:1].isupper() \
                or d.name.isupper():
            continue
        if d.type not in ("person", "thing") and sk not in lx.GIVEN_NAMES:
            continue  # ("Gordon at number 16" had been read as a firm's)
        longer = [p for k, p in people.items() if k.startswith(sk + " ")]
        if not longer and sk in lx.SHORT_GIVEN:  # ... else the name it shortens ("Tom": "Mr Thomas Okafor")
            longer = [p for k, p in people.items() if any(k.startswith(prefix) for prefix in shortened(sk))]
        if not longer and sk not in lx.GIVEN_NAMES:  # a surname: "Okafor" of "David Okafor"
            longer = [p for k, p in people.items() if k.endswith(" " + sk) and len(k.split()) <= 3]
        if len(longer) == 1:
            unresolved[i] = (sk, longer[0])


def _owners(rows: list[dict]) -> dict[str, dict]:
    """Each key (BY_KEYS rows) -> the entity it names: the one whose own key it is before one
    that has it as an alias, and of two with the alias the first by key (rows come in no set order)."""
    rows = sorted(rows, key=lambda r: r["key"])
    known: dict[str, dict] = {r["key"]: r for r in rows}
    for r in rows:
        for a in r["aliasKeys"] or []:
            known.setdefault(a, r)
    return known


def surface_rows(res: Resolution) -> list[dict]:
    """Each name of an episode and the entity it was resolved to, for the write to check under
    the tenant's lock (stale_surfaces)."""
    return [{"surface": sk, "target": tk, "existed": not res.entities[tk].is_new,
             "takes": sk in res.entities[tk].takes}
            for sk, tk in sorted(res.surface_to_key.items())]


def stale_surfaces(rows: list[dict], surfaces: list[dict]) -> list[str]:
    """The names (surface_rows) that no longer stand for the entity they were resolved to, given
    BY_KEYS rows read now: an entity merged into another or forgotten since, a name split off
    it since, a name that has become another entity's own or alias (but for a role alias the
    entity takes from its holder: role_aliases.py)."""
    known = _owners(rows)
    by_key = {r["key"]: r for r in rows}
    stale = []
    for s in surfaces:
        target = by_key.get(s["target"])
        owner = known.get(s["surface"])
        # (a name the target still holds as its own or an alias is still its, whoever else holds it too: one
        # entity's name another's alias had made every write of a cell naming it stale, the cell never written)
        held = target is not None and (s["surface"] == target["key"] or s["surface"] in (target["aliasKeys"] or []))
        if ((s["existed"] and target is None) or (target and s["surface"] in target["splitKeys"])
                or (owner and owner["key"] != s["target"] and not s.get("takes") and not held)):
            stale.append(s["surface"])
    return stale


async def names_to_embed(graph: TenantGraph, drafts: list[EntityDraft]) -> list[str]:
    """The names resolve_entities may embed: drafts none of whose names is a known key. One read
    for a whole processing call, so the names go to the model with its other texts."""
    keys = {normalize_key(n) for d in drafts for n in [d.name, *d.aliases]} - {""}
    rows = await graph.read(BY_KEYS, keys=sorted(keys)) if keys else []
    known = {r["key"] for r in rows} | {a for r in rows for a in r["aliasKeys"] or []}
    return list(dict.fromkeys(d.name for d in drafts
                              if not any(normalize_key(n) in known for n in [d.name, *d.aliases])))


def entity_rows(res: Resolution) -> list[dict]:
    rows = []
    for e in res.entities.values():
        emb = getattr(e, "embedding", None)
        rows.append({
            "key": e.key, "name": e.name, "type": e.type,
            "aliases": sorted(e.aliases), "aliasKeys": sorted({normalize_key(a) for a in e.aliases}),
            "merges": [json.dumps(m, sort_keys=True) for m in e.merges], "takes": sorted(e.takes),
            "embedding": [float(x) for x in emb] if emb is not None else None,
        })
    return rows
