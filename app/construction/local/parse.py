"""A sentence parsed into subject, predicate and object."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.bounds import MAX_OBJECT_CHARS
from app.construction.local.text import _clip
from app.construction.local.voice import LY_ADVERB, _ADVERBS, _VERBISH, _Voice, conjugate, rewrite
from app.construction.local.inline_dates import _unplace
from app.construction.local.entities import _Registry, kin_gender
from app.construction.local.sentence import _Parse, _Sentence
from app.construction.local.fact_patterns import (
    _CLAUSE_FIRST, _COMPOUND, _FAV_IS, _FAV_MY, _FIRST, _GENERIC, _HOMES, _I, _IMPLIED, _LEAD, _LIST_END,
    _MY_KIN, _MY_NOUN, _MY_NOUN_BE, OFFICE_WORDS, RENEWED, _PREP, _RULES, _SECOND, _THIRD, _TO_INF, _TO_VERBS,
    _chunk, _third)
from app.construction.local.lowercase import _THE_END, _entity_and_rest, _entity_at, _entity_in, _lowercase_name


def parse_sentence(sent: _Sentence, reg: _Registry, recent_person: str | None) -> _Parse:
    s1 = sent.s1
    t = sent.t
    voice = _Voice(t.speaker, t.other, sent.companion)
    lead = _LEAD.match(s1)
    body = s1[lead.end():] if lead else s1
    m = _FAV_MY.match(body)
    if m:
        obj = _chunk(_unplace(rewrite(body[m.end():], voice)), max_words=8)
        return _Parse(t.speaker, "speaker", f"favorite {m.group('cat').lower()} is", obj, True, True)
    m = _FAV_IS.match(_unplace(body))
    if m and not _FIRST.match(body):
        cat = (m.group("cat") or "thing").lower()
        obj = _unplace(rewrite(m.group("obj"), voice))
        return _Parse(t.speaker, "speaker", f"favorite {cat} is", obj, True, True)
    held = _holder(body, sent, reg)
    if held is not None:
        return held
    subject, kind, rest, aux, first = _subject(body, sent, reg, voice, recent_person)
    if subject is None:
        cm = _CLAUSE_FIRST.search(body, 0, 100)
        if cm:
            subject, kind, rest, aux, first = _subject(body[cm.end():], sent, reg, voice, recent_person)
    if subject is None or rest is None:
        return _reported(sent, voice)
    if kind.startswith("noun:"):  # "My birthday is in May" -> Maya / birthday is / in May 2023
        obj = _clip(_unplace(rewrite(rest, voice)).rstrip(" .!?"), MAX_OBJECT_CHARS)
        if not obj:
            obj = " ".join(sent.rendered)
        # (a goal, a budget, a rate or a limit is one at a time: "My new goal is to deadlift 80 kg"
        # ends "My goal is to lose weight")
        noun = RENEWED.sub("", kind[5:])
        return _Parse(subject, "speaker", noun, obj, (noun.split()[-2:-1] or [""])[0] in lx.ONE_AT_A_TIME, True)
    phrase = f"{aux} {rest}" if aux else rest
    parsed = _verb_phrase(phrase, sent, reg, voice, first)
    if parsed is None:
        return _reported(sent, voice)
    predicate, obj, single = parsed
    return _Parse(subject, kind, predicate, obj, single, first)


def _holder(body: str, sent: _Sentence, reg: _Registry, org_before: int = 0) -> _Parse | None:
    """"My boss is Sofia Rossi now": a role one person holds for someone at a time, so the new
    holder ends the old. The timeline is the owner's (Maya, "boss is"): "My new manager is Sofia
    Rossi" ends Jonas Weber, who was "my boss"."""
    contact = _contact_for(body, reg) or _contact_at(body, sent, reg)
    if contact is not None:
        return contact
    m = _ROLE_HOLDER.match(body)
    named = None
    if m is None:  # "Dr. Okafor is Dad's doctor now", "Sofia Rossi is my new boss"
        m = _HOLDER_FIRST.match(body.rstrip(" .!")) or _HOLDER_AT.match(body)
        named = m.group("name") if m else None
    role = m.group("role").lower() if m else None
    # An organisation's ("Acme's CFO is Laura Chen", "Laura Chen is the CFO at Acme", "..., their
    # new CFO is Daniel Ortiz"), or a person's relation.
    of_org = role in lx.ORG_ROLES
    if role not in lx.UNIQUE_KIN and not of_org:
        return None
    det = (m.groupdict().get("det") or "").lower()
    if m.groupdict().get("org") or m.groupdict().get("owner"):
        word = m.groupdict().get("org") or m.group("owner")
        said_owner = f"{sent.t.speaker}'s {word.lower()}" if word.lower() in lx.KIN_AS_NAME else word
        whose = reg.get(said_owner)
        owner = whose.name if whose is not None and (whose.type == "person" or of_org) else None
        if of_org and whose is not None and whose.type in ("person", "thing"):  # "Acme's CFO": Acme's no one
            whose.settle("organization")
    elif det in ("their", "its"):  # the organisation the sentence named before
        orgs = [e for mm in sent.mentions if sent.s1_pos(mm.start) < org_before
                and (e := reg.get(mm.key)) is not None and e.type in ("organization", "thing")]
        owner = said_owner = orgs[-1].name if of_org and orgs else None
    else:
        owner = said_owner = sent.t.other if det == "your" else sent.t.speaker
    if named is None:
        named = _WHERE_TAIL.sub("", _NOW_TAIL.sub("", _CLAUSE_TAIL.sub("", _unplace(body[m.end():])).rstrip(" .!")))
    ent = reg.get(named)
    if owner is None or ent is None:  # (the named may be an alias: "Laura", Laura Chen named before)
        return None
    if ent.type != "person" and not (role in lx.TRADES and ent.type in ("organization", "thing")):
        if ent.type != "thing":
            return None
        # who holds a post is a person (a trade may be a firm's: "Quickfix Plumbing"), and so is whom
        # a person's carer or nanny is ("The new carer is Precious": a name no list holds)
        ent.settle("person")
    # "Dad's doctor", met before its holder was named ("... so she's Dad's doctor"), is the holder.
    unnamed = reg.get(f"{said_owner}'s {role}")
    if unnamed is not None and unnamed is not ent and unnamed.kin_unnamed:
        reg.absorb(unnamed, ent)
    if det in ("our", "the", "") and role in lx.TRADES:  # the household's, whoever of it says so ("Our plumber is ...")
        return _Parse(lx.SAME_ROLE.get(role, role), "name", "is", ent.name, True, False, said_now=True)
    return _Parse(owner, "name", f"{lx.SAME_ROLE.get(role, role)} is", ent.name, True, True)


def _contact_for(body: str, reg: _Registry) -> _Parse | None:
    """"Lily's mum Emma Carter is the contact for Lily", then "from now on Lily's dad Tom Carter is
    the contact for Lily instead of Emma": whom to call about someone, one at a time."""
    f = _CONTACT_FOR.search(body)
    if f is None:
        return None
    ent, whose = reg.get(f.group("name")), reg.get(f.group("whose"))
    if ent is None or whose is None or ent is whose or ent.type not in ("person", "thing") \
            or whose.type not in ("person", "organization", "thing"):
        return None
    ent.settle("person")
    return _Parse(whose.name, "name", "contact is", ent.name, True, False, said_now=True)


def _contact_at(body: str, sent: _Sentence, reg: _Registry) -> _Parse | None:
    """"My contact at Northwind is Tom Baker": whom the speaker deals with there, one at a time
    ("My new contact at Northwind is Priya Nair" ends Tom)."""
    m = _CONTACT_AT.search(body) or _CONTACT_AT_FIRST.search(body) or _CONTACT_THERE.search(body)
    if m is None:
        return None
    if m.re is _CONTACT_THERE:
        # "publisher is Brightmoss Publishing, my contact there is Daniel Reyes": the firm named
        # before it in the sentence, the nearest
        at = m.start() + max(0, sent.s1.find(body))  # (in the sentence, whose end `body` may be)
        named = sent.named_before(reg, at, ("organization", "thing", "place"))
        org = named[-1] if named else None
    else:
        org = reg.get(m.group("org"))
    ent = reg.get(_CLAUSE_TAIL.sub("", _unplace(body[m.end():])).rstrip(" .!"))
    if org is None or ent is None or ent.type not in ("person", "thing") or org is ent:
        return None
    ent.settle("person")
    if org.type in ("person", "thing", "place"):  # whom one deals with there: an organisation
        org.settle("organization")
    name = reg.known_as.get(org.key, org.name)  # ("Blue Harbour", known as "Blue Harbour Fish Co")
    return _Parse(sent.t.speaker, "speaker", f"contact at {name} is", ent.name, True, True)


# At the sentence's start or a clause's ("Tom left Northwind, so my new contact there is ...").
_CONTACT = (r"(?:my|our)\s+(?:new\s+|main\s+|current\s+|primary\s+)?(?:contact|point\s+of\s+contact|"
            r"account\s+manager|rep|liaison)")
_CONTACT_AT = re.compile(r"(?:^|[,;]\s+(?:(?:and|but|so)\s+)?|\b(?:and|but|so)\s+)" + _CONTACT +
                         r"\s+(?:at|from|in|with)\s+(?:the\s+)?"
                         r"(?P<org>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)\s+is\s+(?:now\s+)?", _I)
# ... or "there", after the firm in the sentence: "publisher is Brightmoss, my contact there is Dan".
_CONTACT_THERE = re.compile(r"(?:[,;]\s+(?:(?:and|but|so)\s+)?|\b(?:and|but|so)\s+)" + _CONTACT +
                            r"\s+there\s+is\s+(?:now\s+)?", _I)
# ... or the place said first: "At Blue Harbour my contact is Niamh Kelly".
_CONTACT_AT_FIRST = re.compile(r"^(?:at|with|for)\s+(?:the\s+)?(?P<org>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)\s*,?\s+"
                               + _CONTACT + r"\s+is\s+(?:now\s+)?", _I)
# Whom to call about someone: "<name> is (now) the (main) contact for <name>".
_CONTACT_FOR = re.compile(r"(?:^|\s)(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s+is\s+(?:now\s+)?(?:the|our)\s+"
                          r"(?:(?:main|new|primary|first|only|emergency)\s+)?(?:point\s+of\s+)?contact\s+for\s+"
                          r"(?P<whose>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)")
# (a trade's kind before the role: "our mortgage broker", "my personal trainer")
# ("my practice supervisor is Staff Nurse Gemma Doyle", "my line manager is ...": the one supervisor, manager)
_KIND = (r"(?:(?:mortgage|estate|letting|booking|personal|financial|family|divorce|property|tax|practice|placement|"
         r"clinical|line|ward)\s+)?")
_ROLE_HOLDER = re.compile(r"^(?:the\s+(?=[\w-]+['’]s\s))?"  # ("the Lexington's booker is Tom Hale")
                          # (the speaker's, said "the new" or "new": "The new carer is Precious", "new rep is Sian")
                          r"(?:(?P<det>my|our|your|their|its|the(?=\s+(?:new|current)\s)|(?P<owner>[A-Z][\w-]+)['’]s)\s+|"
                          r"(?=(?i:new)\s))(?:new\s+|current\s+)?"
                          # ("my advisor there is Daniel Okoro", "my rep at Edmundson's is Dave Morgan")
                          rf"{_KIND}(?P<role>health\s+visitor|key\s+worker|[\w-]+)(?:\s+(?:there|here))?"
                          r"(?:\s+(?:at|from|with)\s+[A-Z][\w'&.-]*(?:\s+(?:&\s+)?[A-Z][\w'&.-]*){0,2})?\s+is\s+(?:now\s+)?", _I)


_HOLDER_FIRST = re.compile(r"^(?P<name>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3})\s+is\s+(?:now\s+)?"
                           r"(?P<det>my|our|your|(?P<owner>[A-Z][\w-]+)['’]s)\s+(?:new\s+|current\s+)?"
                           rf"{_KIND}(?P<role>health\s+visitor|[\w-]+)(?:\s+(?:now|from now on|these days))?"
                           r"(?:$|(?=\s*[,;]\s))")  # ("Gary Platt is our plumber, Platt Plumbing")
# "Mum's GP is Dr. Shah and she sees her every month": the holder's name ends with its clause.
_CLAUSE_TAIL = re.compile(r"(?:\s*[,;]|\s+(?:and|but|so|who|because|since|although|though)\s).*$", _I)
_HOLDER_AT = re.compile(r"^(?P<name>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3})\s+(?:is|'s|became|has\s+become|"
                        r"(?:has\s+)?moved\s+(?:in)?to|stepped\s+(?:up\s+)?into|"
                        r"(?:was|got|has\s+been)\s+promoted\s+to|took\s+over\s+as)\s+(?:now\s+)?(?:the\s+)?"
                        r"(?:new\s+)?"
                        r"(?P<role>[\w-]+)"
                        r"(?:\s+(?:role|job|position|post|seat))?\s+(?:at|of|for)\s+"
                        r"(?P<org>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)")
_NOW_TAIL = re.compile(r"\s+(?:now|these days|nowadays|at the moment|since then)$", _I)
# "My coach is Mark Hughes at Riverside Runners": where the holder is, not part of the name.
# ("Isla's physio is now Tom Okafor at the same clinic": a place said as the one before)
_WHERE_TAIL = re.compile(r",?\s+(?:at|from|with|of)\s+(?:the\s+)?(?:[A-Z][\w'-]*(?:\s+(?:&\s+)?[A-Z][\w'-]*)*"
                         r"(?:\s+(?:clinic|practice|surgery|hospital|club|office))?|(?i:same|usual|new)\s+"
                         r"(?i:clinic|practice|surgery|hospital|club|office|place|firm|gym|salon|school))$")


_LATER_CLAUSE = re.compile(
    r"(?:,|;|\band\b|\bbut\b|\bso\b)\s+(?:(?:now|currently|recently|since then|these days)\s+)?"
    r"(?=(?:I|I'm|I've|we|we're|we've)(?![\w']))", _I)


_AT_EMPLOYER = re.compile(r"\s+(?:at|for|with)\s+(?:the\s+)?(?=[A-Z])")


def employer(sent: _Sentence, reg: _Registry, parse: _Parse) -> _Parse | None:
    """"I work as a nurse at St. Mary's Hospital": beside the job, where it is held, a fact of
    its own (a notice given at St. Mary's ends it; the job is still hers)."""
    if parse.predicate != "job is":
        return None
    at = sent.s1.lower().find(parse.obj.lower())
    m = _AT_EMPLOYER.match(sent.s1, at + len(parse.obj)) if at >= 0 else None
    ent = _entity_at(sent.s1[m.end():], sent, reg) if m else None
    if ent is None or ent[1] == "person":
        return None
    return _Parse(parse.subject, parse.kind, "works at", ent[0], True, parse.first_person)


_LATER_THIRD = re.compile(r"(?:,|;|\band\b|\bbut\b|\bso\b)\s+(?:now\s+)?(?=(?:he|she|he's|she's)(?![\w']))", _I)
_LATER_HOLDER = re.compile(r"(?:,|;|\b(?i:and|but|so)\b)\s+(?:(?P<pronoun>(?i:she|he))(?:'s|’s|\s+is)\s+|"
                           r"(?=[A-Z]|(?i:their|its)\s))")


def _people_before(sent: _Sentence, reg: _Registry, pos: int) -> list:
    """The persons (not speakers) the sentence names before `pos` in s1, in order."""
    return sent.named_before(reg, pos, ("person",))


def later_single(sent: _Sentence, reg: _Registry, after: int) -> _Parse | None:
    """A single-valued fact in a later first-person clause: "I used to live in Chicago but now
    I'm based in Austin" -> lives in Austin, told from that clause ("Maya is based in Austin")."""
    voice = _Voice(sent.t.speaker, sent.t.other, sent.companion)
    for m in _LATER_CLAUSE.finditer(sent.s1, after):
        fm = _FIRST.match(sent.s1[m.end():])
        if not fm:
            continue
        rest = sent.s1[m.end() + fm.end():]
        aux = _IMPLIED.get(fm.group(1).lower(), "")
        parsed = _verb_phrase(f"{aux} {rest}" if aux else rest, sent, reg, voice, True)
        if parsed and parsed[2]:
            return _Parse(sent.t.speaker, "speaker", parsed[0], parsed[1], True, True, m.end())
    for m in _LATER_THIRD.finditer(sent.s1, after):
        # "My father Raj is 78 and he lives with me in Edison": his, told from that clause.
        fm = _THIRD.match(sent.s1[m.end():])
        people = _people_before(sent, reg, m.start())
        if not people or kin_gender(people[-1].name) not in (None, "f" if fm.group(1)[0] in "sS" else "m"):
            continue
        rest = sent.s1[m.end() + fm.end():]
        aux = _IMPLIED.get(fm.group(1).lower(), "")
        parsed = _verb_phrase(f"{aux} {rest}" if aux else rest, sent, reg, voice, False)
        if parsed and parsed[2]:
            return _Parse(people[-1].name, "pronoun", parsed[0], parsed[1], True, False, m.end())
    for m in _LATER_HOLDER.finditer(sent.s1, after):
        # "Dr. Okafor is taking over his patients, so she's Dad's doctor from now on": the role
        # is the first person the sentence named's (told from the whole sentence); "Dr. Lee is
        # retiring, so Dr. Okafor is Dad's doctor from now on": the one it names.
        if m.group("pronoun"):
            people = _people_before(sent, reg, m.start())
            held = _holder(f"{people[0].name} is {sent.s1[m.end():]}", sent, reg) if people else None
        else:
            held = _holder(sent.s1[m.end():], sent, reg, m.start())
        if held is not None:
            return held
    return None


def _reported(sent: _Sentence, voice: _Voice) -> _Parse:
    obj = _clip(_unplace(rewrite(sent.s1, voice)).rstrip(" .!?"), MAX_OBJECT_CHARS)
    return _Parse(sent.t.speaker, "reported", "said", obj)


# Where a kin or role word's holder is, between it and its verb: "my rep at Edmundson's is ...".
_KIN_AT = re.compile(r"^(?:at|from|with|in)\s+[A-Z][\w'&.-]*(?:\s+(?:&\s+)?[A-Z][\w'&.-]*){0,3}\s+(?=(?:is|was)\s)")


def _whose(det: str, recent: str | None) -> str | None:
    """Whom "his" or "her" opening a sentence is: the person named last ("Martha Kiel is my
    editor. Her boss is Graham Otieno": Martha's boss, it was "Ines said her boss is ..."), unless
    the name says otherwise."""
    gender = kin_gender(recent) if recent else None
    return recent if recent and gender != ("m" if det == "her" else "f") else None


def _subject(body: str, sent: _Sentence, reg: _Registry, voice: _Voice, recent: str | None):
    """(subject, kind, rest of the sentence, implied auxiliary, first-or-second person)."""
    t = sent.t
    m = _COMPOUND.match(body)
    if m:
        return t.speaker, "speaker", body[m.end():], "", False
    m = _FIRST.match(body)
    if m:
        return t.speaker, "speaker", body[m.end():], _IMPLIED.get(m.group(1).lower(), ""), True
    m = _MY_KIN.match(body)
    if m:
        det = m.group("det").lower()
        owner = t.speaker if det in ("my", "our") else t.other if det == "your" else _whose(det, recent)
        if owner is not None:
            rest = body[m.end():]
            named = _named_relative(rest, sent, reg)
            if named:
                return named
            name = reg.canonical(f"{owner}'s {m.group('kin').lower()}")
            rest = body[m.end():].lstrip(" ,")
            if (where := _KIN_AT.match(rest)) is not None:
                rest = rest[where.end():]  # "my rep at Edmundson's is Dave Morgan": the rep is (it was no fact)
            return name, "kin", rest, "", False
    m = _MY_NOUN_BE.match(body)
    if m and m.group("det"):
        noun = m.group("noun").lower()
        obj = _unplace(rewrite(body[m.end():], voice))
        be = "is" if m.group("be").lower() in ("is", "are") else "was"
        if noun in ("job", "occupation", "profession") and _is_profession(obj):
            return t.speaker, "speaker", "am a " + re.sub(r"^(?:an?|the)\s+", "", obj, flags=_I), "", True
        # "My new flat is in Ancoats": where the speaker lives (not "my old flat was in Leeds").
        if (re.sub(r"^(?:new|current)\s+", "", noun) in _HOMES and be == "is"
                and re.match(r"(?i:in|near)\s+(?:the\s+)?[A-Z]", body[m.end():])):
            return t.speaker, "speaker", "live " + body[m.end():], "", True
        return t.speaker, f"noun:{noun} {be}", body[m.end():], "", True
    m = _MY_NOUN.match(body)
    if m:
        return f"{t.speaker}'s {m.group('noun').lower()}", "possession", body[m.end():], "", False
    m = _SECOND.match(body)
    if m and t.other:
        return t.other, "other", body[m.end():], _IMPLIED.get(m.group(1).lower(), ""), True
    m = _THIRD.match(body)
    if m and recent:
        aux, rest = _IMPLIED.get(m.group(1).lower(), ""), body[m.end():]
        if aux == "is" and (been := _BEEN_A.match(rest)) is not None:
            rest = rest[been.end():]  # "he's been our drummer since 2022": what he is (it was "Sam is been")
        elif aux == "is":
            aux = pronoun_aux(rest)  # "she's been promoted", "she's put Maisie on bute": has
        return recent, "pronoun", rest, aux, False
    found = _entity_and_rest(body, sent, reg) if body[:1].isupper() else None
    if found:
        name, _, rest = found
        if rest.startswith("'s "):
            aux = _contracted_aux(rest[3:])
            if aux:  # "Hannah's finally converted me": Hannah has
                return name, "name", f"{aux} {rest[3:]}", "", False
            # "Maya's brother Tom lives in Leeds": Tom does (not "Maya's brother" doing "tom").
            kin = _MY_KIN.match("my" + rest[2:])  # as long as "'s": its end is rest's too
            relative = _named_relative(rest[kin.end():], sent, reg) if kin else None
            if relative:
                return relative
            noun = _MY_NOUN.match("my " + rest[3:])
            if noun:
                word = noun.group("noun")
                after = rest[3 + len(word):].lstrip()
                # "Tessa's editor Priya negotiated it": the one named in their role does.
                relative = _named_relative(after, sent, reg) if word.lower() in lx.PROFESSIONS else None
                if relative:
                    return relative
                return f"{name}'s {word.lower()}", "possession", after, "", False
            return None, "", None, "", False
        rest = _APPOS_SKIP.sub("", rest, count=1)
        return name, "name", rest.lstrip(" ,"), "", False
    return None, "", None, "", False


def _named_relative(rest: str, sent: _Sentence, reg: _Registry):
    """The subject when a name follows a kin or role word ("my sister Jo works ...", "Tessa's
    editor Priya ..."), with the rest of the sentence; None when no name does."""
    found = _entity_and_rest(rest, sent, reg) if rest[:1].isupper() or sent.lowercase else None
    return (found[0], "name", found[2].lstrip(" ,"), "", False) if found else None


_HAS_WORDS = frozenset("been got gotten gone".split())
_BEEN_A = re.compile(r"been\s+(?=(?:our|my|the|a|an|his|her|their)\s)", _I)
# Words after a name's "'s" that make it "is": where someone is ("Sam's in Leeds", "Anouk's off
# Heron") and what they are doing, in verbs that are seldom a thing owned ("Rosie's leaving
# Leeds"; not "painting" or "wedding", not "back" or "home").
_IS_WORDS = frozenset("""in at on off out away from with into here there going coming leaving moving
getting starting doing having taking making staying feeling looking trying thinking planning heading
the a an our my your their""".split())  # ("Megan's the new sharer", "Sam's our drummer": no possessive before them)
_ASPECT_ADVERBS = frozenset("""just already never always finally now still also recently officially actually
really definitely probably even""".split())


def _contracted_aux(after: str) -> str | None:
    """What "'s" after a name stands for when it is no possessive: "has" before a participle
    ("Hannah's finally converted me", "Sam's been promoted"), "is" before a place or a doing
    ("Sam's in Leeds", "Sam's leaving") and before an adverb and anything else ("Sam's still in
    Leeds"); None for a possessive ("Sam's dog")."""
    words = after.split()
    if not words:
        return None
    first = words[0].lower().strip(",.")
    if first in _HAS_WORDS:
        return "has"
    if first in _IS_WORDS:
        return "is"
    if first not in _ASPECT_ADVERBS:
        return None
    nxt = next((w.lower().strip(",.") for w in words[1:] if w.lower() not in _ASPECT_ADVERBS), "")
    if nxt in _HAS_WORDS or nxt in lx.IRREGULAR_PAST or (nxt.endswith("ed") and not nxt.endswith("eed")):
        return "has"
    return "is"


# Past forms a pronoun's "'s" is "has" before ("she's put Maisie on half a sachet", "he's sent the forms"):
# no possessive follows "she's", so a past form is its verb; not those mostly said of a state ("he's
# lost", "she's stuck", "he's fed up").
_PRONOUN_HAS = (lx.IRREGULAR_PAST | lx.PARTICIPLES) - frozenset("lost set broke beat bent lit shut hung stuck fed lay bit".split())


def pronoun_aux(rest: str) -> str:
    """What "he's" or "she's" stands for before `rest`: "has" before a participle ("she's been
    promoted", "she's just converted me", "she's put him on bute"), "is" before anything else
    ("she's tired", "he's in Leeds", "he's been our drummer": what he is)."""
    if _BEEN_A.match(rest):
        return "is"
    first = (rest.split() or [""])[0].lower().strip(",.")
    if _DONE_TO.match(rest):
        return "has"  # ("He's sorted us a dep though", "she's booked the table": what was done, to whom)
    return "has" if first in _PRONOUN_HAS or _contracted_aux(rest) == "has" else "is"


_DONE_TO = re.compile(r"(?:just\s+|already\s+|finally\s+)?[a-z]{3,}ed\s+(?:us|me|him|them|you|the|a|an|our|my|his|their|"
                      r"(?-i:[A-Z])[\w'-]+)\b", _I)  # (a name: the fact's text says whom "us" was)


_APPOS_SKIP = re.compile(r"^,\s+(?:my|our|your|his|her|their|the)\s+(?:[\w-]+\s+){0,2}?[\w-]+,\s*", _I)


def _is_profession(obj: str) -> bool:
    words = obj.lower().replace("a ", "", 1).split()[:3]
    return any(w.strip(".,!") in lx.PROFESSIONS for w in words)


def _verb_phrase(phrase: str, sent: _Sentence, reg: _Registry, voice: _Voice,
                 first: bool) -> tuple[str, str, bool] | None:
    for rx, predicate, mode, single in _RULES:
        m = rx.match(phrase)
        if not m:
            continue
        after = phrase[m.end():]
        if mode.startswith("ends_"):
            ended = _ended(mode, after, sent, reg)
            if ended is None:
                continue
            return ended[0] if predicate == "left" else predicate, ended[1], single
        if mode in ("place", "org_only", "named"):  # named: any entity but a person
            ent = _entity_at(after, sent, reg)
            if ent is None and sent.lowercase and not _THE_END.search(m.group(0)):
                ent = _lowercase_name(after, sent, reg, "place" if mode == "place" else "organization")
            if ent is None or ent[1] == "person" or (mode == "org_only" and ent[1] != "organization"):
                continue
            return predicate, ent[0], single
        if mode == "org":
            ent = _entity_at(after, sent, reg) or _entity_in(_chunk(after, _LIST_END, 6), sent, reg) or (
                _lowercase_name(after, sent, reg, "organization")
                if sent.lowercase and not _THE_END.search(m.group(0)) else None)
            obj = ent[0] if ent else _chunk(_unplace(rewrite(after, voice)), max_words=5)
            if not obj:
                continue
            return predicate, obj, single
        if mode == "job":
            words = _chunk(_unplace(after), max_words=5).split()
            for i, w in enumerate(words[:4]):
                if w.lower().strip(".,!") in lx.PROFESSIONS:
                    return predicate, " ".join(words[: i + 1]).lower(), single
            if predicate == "job is" and words:
                return predicate, " ".join(words[:3]).lower(), single
            continue
        if mode == "office":  # "the Berlin office": to its office word
            words = _chunk(_unplace(after), max_words=4).split()
            ends = [i for i, w in enumerate(words) if w.lower().strip(".,!;") in OFFICE_WORDS]
            if not ends:
                continue
            return predicate, " ".join(words[: ends[0] + 1]).strip(".,!;"), single
        if mode == "dating":
            ent = _entity_at(after, sent, reg)
            obj = ent[0] if ent else _chunk(_unplace(rewrite(after, voice)), max_words=4)
            return predicate, f"dating {obj}".strip(), single
        if mode == "status":
            status = m.group("st").lower()
            ent = _entity_at(after, sent, reg) if m.group(0).rstrip().endswith(("to", "with")) else None
            if ent:
                status += (" to " if status != "in a relationship" else " with ") + ent[0]
            return predicate, status, single
        if mode == "single":
            return predicate, "single", single
        if mode == "list":
            obj = _chunk(_unplace(rewrite(after, voice)), _LIST_END, max_words=10)
            if not obj:
                continue
            return predicate, obj, single
        if mode == "has":
            nxt = after.split(" ", 1)[0].lower()
            if nxt in lx.IRREGULAR_PAST or nxt in lx.PARTICIPLES or nxt.endswith(("ed", "en")):
                break  # "I have seen ...": a verb, not a possession
        return predicate, _object(after, voice), single
    return _generic(phrase, voice, first)


def _ended(mode: str, after: str, sent: _Sentence, reg: _Registry) -> tuple[str, str] | None:
    """(predicate, object) of a statement that a job or a home ended; "job" when the job is
    not named (it ends whichever the speaker had)."""
    ent = _entity_at(after, sent, reg)
    kind = ent[1] if ent else None
    if mode == "ends_job":
        return "left job at", ent[0] if kind == "organization" else "job"
    if mode == "ends_place":
        return ("moved out of", ent[0]) if kind == "place" else None
    if kind == "organization":
        return "left job at", ent[0]
    if kind == "place":
        return "moved out of", ent[0]
    return None


def _generic(phrase: str, voice: _Voice, first: bool) -> tuple[str, str, bool] | None:
    m = _GENERIC.match(phrase)
    if not m:
        return None
    verb = m.group("verb")
    lv = verb.lower()
    chain = [w for w in m.group("aux").split()
             if (w.lower() not in _ADVERBS and not LY_ADVERB.fullmatch(w)) or w.lower() in _NEGATIONS]
    aux_words = [w for w in chain if w.lower() not in _NEGATIONS]
    # Only the finite word agrees with "she": "I'll have to" is "will have to", "I don't have
    # to" is "doesn't have to", "I have been" is "has been".
    finite = aux_words[0] if aux_words else None
    agreed = [(_third(w) if first and w is finite else w.lower()) for w in chain]
    if aux_words and aux_words[-1].lower() in ("be", "been") and lv in _LOCATIVE:
        return " ".join((agreed + [lv])[:7]), _object(phrase[m.end():], voice), False
    if (lv in lx.STOPWORDS and lv not in _VERBISH) or lv in lx.PRONOUNS or lv in lx.DATE_WORDS:
        return None
    words = agreed
    if first and not aux_words:
        words.append(conjugate(verb).lower())
    else:
        words.append(lv)
    end = m.end()
    if lv in _TO_VERBS:
        inf = _TO_INF.match(phrase, end)
        if inf and (inf.group("inf") not in lx.STOPWORDS or inf.group("inf") in _VERBISH):
            words += ["to", inf.group("inf").lower()]
            end = inf.end()
    prep = _PREP.match(phrase, end)
    if prep:
        words.append(prep.group("prep").lower())
        end = prep.end()
    predicate = " ".join(" ".join(words).split()[:7])
    return predicate, _object(phrase[end:], voice), False


_NEGATIONS = frozenset({"never", "not"})
_LOCATIVE = frozenset("in at on to with from near into away home back there here out".split())
_CLAUSE_END = re.compile(
    # (not a time's colon: "we start at 8:50" had kept "8")
    r"[;!?()\"]|:(?!\d\d)|,\s*(?:and|but|so|because|which|who|when|while|although|though|then|i|we|she|he|they|"
    r"it|my|that's|it's)\b|\s(?:and|but|so)\s+(?:i|we|she|he|they|it|my|then|that)\b|"
    r"\s(?:because|although|though|whereas)\s|"
    # ... or another's words after a comma: "we start at 8:50, Steve says he needs the extra 10 minutes"
    r",\s*(?-i:[A-Z][a-z'-]+)\s+(?:says|said|thinks|reckons|wants|needs)\b|"
    # another's clause: "Kai sings and Theo plays drums"
    r"(?P<another>(?:^|\s)(?:and|but|while)\s+(?-i:[A-Z][a-z'-]+)\s+(?-i:[a-z]+s)\b)", _I)


def _object(rest: str, voice: _Voice) -> str:
    """The rest of a clause after its verb, up to the next clause, in the third person."""
    rest = _unplace(rest)
    m = _CLAUSE_END.search(rest)
    if m and (m.start() > 0 or m.group("another")):  # ("Kai sings and Theo plays drums": no object)
        rest = rest[: m.start()]
    return _clip(rewrite(rest, voice).strip(" ,").rstrip(" .!?"), MAX_OBJECT_CHARS)


# One's weekly slot, then others' in a list: "Lily is tuesdays at 4pm, Oscar mondays 5pm, Maisie
# saturdays 10am and Freya wednesdays 6pm" (it was one fact of Lily's holding all four).
_DAYS = r"(?:every\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_SLOT = (rf"{_DAYS}(?:\s*(?:and|&|/)\s*{_DAYS})?(?:\s+(?:at\s+)?\d{{1,2}}(?:[:.]\d\d)?\s*(?:am|pm)?)?"
         r"(?:\s+(?:mornings?|afternoons?|evenings?))?")
_FIRST_SLOT = re.compile(rf"^(?P<when>{_SLOT})(?=\s*,)", re.I)
_NEXT_SLOT = re.compile(rf"(?:,\s*(?:and\s+)?|\s+and\s+)(?P<who>(?-i:[A-Z])[\w'-]+)\s+(?:is\s+|on\s+)?"
                        rf"(?P<when>{_SLOT})(?=\s*(?:,|\band\b|[.!]|$))", re.I)


def each_slot(parse: _Parse, sent: _Sentence, reg: _Registry) -> list[_Parse]:
    """`parse`, a weekly slot of someone's, and each slot the sentence gives others after it, one
    fact each; [parse] when it lists none."""
    first = _FIRST_SLOT.match(parse.obj) if parse.predicate == "is" else None
    if first is None:
        return [parse]
    found = []
    for m in _NEXT_SLOT.finditer(sent.text):
        ent = reg.get(m.group("who"))
        if ent is None or ent.type not in ("person", "thing") or ent.name == parse.subject:
            continue
        when = " ".join(m.group("when").split())
        found.append(_Parse(ent.name, "name", "is", when, False, False, text=f"{m.group('who')} is {when}"))
    if not found:
        return [parse]
    when = " ".join(first.group("when").split())
    said = sent.text.split(" is ", 1)[0] if " is " in sent.text else parse.subject
    return [_Parse(parse.subject, parse.kind, "is", when, parse.single, parse.first_person,
                   text=f"{said} is {when}"), *found]
