"""Entities: names, kin and pets found in a sentence, typed by their cues, merged across the episode."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Sequence

from app.construction import lexicon as lx
from app.domain.models import EntityDraft
from app.construction.local.bounds import LETTER, MAX_ENTITIES, _alt
from app.construction.local.voice import _Voice


_TOKEN = re.compile(r"[^\W_][\w'&-]*")
_KIN_ALT = _alt(lx.KIN)
_PET_ALT = _alt(lx.PETS)
_KIN_ADJ = ("new|little|big|older|younger|best|old|late|dear|eldest|oldest|youngest|twin|baby|"
            "step|lovely|sweet|cute|rescue|adopted|favorite|favourite|close|good|ex|future")
_OWNER = r"(?:(?i:my|our|your)|(?P<owner>[A-Z][\w-]+)'s)"
# A kin's or a pet's word that begins a post or a thing: "our dog walker", "my mum's carer", "cat food".
_NOT_A_POST = r"(?!\s+(?i:walker|sitter|groomer|trainer|minder|carer|nanny|food|insurance|vet|daycare)s?\b)"
_KIN_MENTION = re.compile(
    rf"(?<![\w'])(?P<det>{_OWNER})\s+(?:(?i:{_KIN_ADJ})\s+)?(?P<kin>(?i:{_KIN_ALT}|{_PET_ALT}))(?![\w'-])"
    + _NOT_A_POST)
_NAMED_AFTER = re.compile(r",?\s+(?:(?i:named|called|is)\s+)?(?=[A-Z])")  # "my sister Priya", "... is Priya"
_PET_NAMED = re.compile(rf"(?i:\b(?:a|an|the)\s+(?:\w+\s+)?(?:{_PET_ALT})\s+(?:named|called)\s+)$")
_DROP = (lx.STOPWORDS | lx.INTERJECTIONS | lx.PRONOUNS | lx.DATE_WORDS | lx.REQUEST_VERBS
         | {"i'm", "i've", "i'll", "i'd", "i", "im", "ive"})
_ROLE_WORDS = lx.KIN | lx.ORG_ROLES
# "Welcome Dev!": a greeting before a name, not part of it; "Poor Ethan twisted his knee": pity
_DROP_FIRST = _DROP | {"welcome", "poor"}
_SPLIT_AT = lx.DATE_WORDS | {"i", "i'm", "i've", "i'll", "i'd"}
_POSSESSIVE = re.compile(r"['’]s$")
_EMPHASIS = lx.STOPWORDS | lx.INTERJECTIONS | lx.COMMON_WORDS | frozenset(
    "love best omg lol lmao wtf btw idk tbh imo fyi asap diy tv ok rip nyc".split())

_A_PERSON = re.compile(
    r"^(?:'s\s+(?i:" + _KIN_ALT + r")\b|\s+(?:said|says|told|tells|asked|asks|texted|texts|called|"
    r"thinks|thought|wants|wanted|helped|helps|loves|loved|likes|liked|is my|was my|and I\b|and me\b|"
    r"who\b|herself|himself|was born|passed away|got married|gave birth|feels|felt|laughed|cried|"
    r"smiled|replied|mentioned|suggested|invited|hugged|met me|visited me|came over|came by|"
    r"recommended|agreed|knows|knew|lives|works|studies|graduated|moved|has been|is doing|was doing|"
    r"is coming|came round|is visiting|got engaged|is pregnant|(?:has|got|started) a new job|hates|prefers|"
    # ("Lou Marchetti is leaving Verdant too??": a person leaving a firm, of no given name we know)
    r"is\s+leaving|has\s+left|is\s+retiring|resigned|handed\s+in\s+(?:his|her)\s+notice|"
    r"(?:is|was)\s+(?:vegan|vegetarian|pescatarian|allergic|diabetic|coeliac|celiac|lactose intolerant)\b))")
_B_PERSON = re.compile(
    r"(?i:\b(?:and I|me and|met|meet|meeting|told|tell|asked|ask|called|call|texted|text|hugged|"
    r"married|marry|marrying|dating|date|thanks|thank|hi|hey|hello|dear|welcome|visit from|love you|miss|"
    r"talked to|talk to|talking to|spoke to|spoke with|speak to|said to|wrote to|sent|introduced|"
    r"listen to|engaged to|married to|hang out with|hung out with|hanging out with|friends with|"
    r"catch up with|caught up with|congrats|congratulations|happy birthday|thanks to|said|says|"
    r"asked|replied|according to|"
    r"interviewed|interviewing|recruited|onboarded|phoned|rang)\s*,?\s+)$")  # ("We interviewed Ravi Menon")
# "Mia couldn't come", "Ken didn't say": a negated verb only people do things with.
# What an organisation has, said after its name's "'s": its contact, admin, plan, teams, posts.
_A_ORG_OWNS = re.compile(
    r"\s+(?:(?:new|main|current|primary|former|old)\s+)*(?i:contact|admin|administrator|account|plan|seats|renewal|"
    r"subscription|contract|invoices?|billing|security\s+team|finance\s+team|it\s+team|procurement|ceo|cfo|cto|"
    r"coo|vp|head\s+of|office|offices|headquarters|hq|website|customers|employees|staff|warehouse|stack|"
    r"deployment|instance|tenant|workspace|quarter-end|fiscal)\b")
_A_PERSON_NOT = re.compile(
    r"^\s+(?i:couldn't|can't|didn't|doesn't|don't|won't|wouldn't|hasn't|hadn't)\s+(?i:come|make it|go|"
    r"stop|believe|remember|decide|wait|sleep|eat|say|tell|want|like|know|think|care|mind|reply|"
    r"answer|call|text|show up|turn up|feel|understand|agree)\b")
# "Mia couldn't come though, she's allergic": a name a few words before "she" or "he" after a
# comma, in the same sentence (the clause goes on about that person). Not over another name:
# in "I live in Leeds with my partner Tom, he is a nurse" the nearer one is the person.
# ... or after the sentence's end ("We interviewed Ravi Menon yesterday. He was sous at ...").
_A_PRONOUN = re.compile(r"^(?:\s+(?![A-Z])[\w'-]+){0,4}?\s*(?:,|[.!?]+)\s+(?i:she|he)(?:'s|'d|'ll)?\s")
# "How's Rosa?": asked after as people are (a weak cue: "how's Leeds" is asked too).
_B_HOWS = re.compile(r"(?i:\bhow(?:'s|\s+is)\s+)$")
# "a studio called Pixelhaus", "a guy named Omar": the noun says what the name is.
_CALLED = re.compile(r"(?i:\b(?:a|an|the|this|that|some)\s+(?:[\w-]+\s+){0,2}?(?P<noun>[\w-]+)\s+"
                     r"(?:called|named)\s+)$")
_CALLED_TYPE = {
    **dict.fromkeys("""studio agency company startup start-up firm shop store bakery cafe café
        restaurant bar pub band club gym charity label practice clinic school team brand app
        business magazine podcast channel nonprofit organisation organization society choir
        orchestra publisher brewery consultancy""".split(), "organization"),
    **dict.fromkeys("""town village city neighbourhood neighborhood street road area island lake
        mountain beach park suburb district valley river trail crag""".split(), "place"),
    **dict.fromkeys("""guy girl woman man friend person lady bloke kid boy chap dude teacher
        doctor nurse colleague coworker neighbour neighbor""".split(), "person"),
}
_B_KIN_END = re.compile(
    rf"(?i:\b(?:my|our|your|his|her|their)\s+(?:(?:{_KIN_ADJ})\s+)?(?:{_KIN_ALT})\s*,?\s+)$")
_B_WITH = re.compile(r"(?i:\bwith\s+)$|\bwith\s+[A-Z][\w'-]*\s+and\s+$")
_B_ORG = re.compile(
    r"(?i:\b(?:work|works|worked|working|job|position|role|internship|intern|interned|employed|"
    r"hired|joined|joining|join|ceo of|founder of|founded|contract with|offer from|"
    r"interview with|interview at|interviewing at|apply to|applied to|applying to|graduated from|"
    r"notice at|notice to|resigned from|promoted to [\w ]{1,40}? at|"
    r"graduate of|studied at|studies at|study at|studying at|student at|enrolled at|degree from|"
    r"startup called|company called|firm called|business called|contact at|contacts at|client|customer|"
    r"vendor|supplier|deal with|proposal to|signed with|partnership with|"
    r"(?:vp|svp|evp|head|director|chief)(?:\s+[\w]+){0,3}?\s+at|"
    rf"{_alt(lx.PROFESSIONS)})\s+"
    r"(?:(?:at|for|with|by|from)\s+)?)$")
_B_PROJECT = re.compile(
    r"(?i:\b(?:project|working on|work on|works on|worked on|building|launched|launching|developing|"
    r"an app called|a project called|side project)\s+)$")
_A_PROJECT = re.compile(r"^\s+(?i:project)\b")
_B_PLACE = re.compile(
    r"(?i:\b(?:in|to|from|visited|visit|visiting|near|around|across|toward|towards|into|through|"
    r"outside|inside|across|flew to|moved to|live in|living in|based in|trip to|back to)\s+(?:the\s+)?)$")
_B_AT = re.compile(r"(?i:\bat\s+(?:the\s+)?)$")

# Whose relative a name is, said beside it: "Tobias, my neighbour," and "Priya is my sister".
_APPOS = re.compile(
    # Another's after "is", not after a comma: "after Declan, Conor's mother and my sister" lists.
    rf"(?:,\s+|\s+(?i:is|was)\s+(?:now\s+)?)(?P<det>(?i:my|our|your|his|her|their)|"
    rf"(?:(?<=(?i:\sis)\s)|(?<=(?i:\swas)\s)|(?<=(?i:\snow)\s))(?P<owner>[A-Z][\w-]+)['’]s)\s+"
    rf"(?:(?i:{_KIN_ADJ})\s+)?"
    rf"(?P<kin>(?i:{_KIN_ALT}|{_PET_ALT}))(?![\w'-])"
    # ("Priya Nair is our new dog walker": a post, not our dog)
    + _NOT_A_POST)

# ... or another's, after a comma, said of one introduced ("I'm Ollie Brennan, Nadia's coach", "this is Dr
# Hughes, Geoff's GP": "Nadia's coach" had been a person of its own). (Its "det" is empty: read as _APPOS's.)
_INTRO_APPOS = re.compile(rf",\s+(?P<det>)(?P<owner>[A-Z][\w-]+)['’]s\s+(?:(?i:{_KIN_ADJ})\s+)?"
                          rf"(?P<kin>(?i:{_KIN_ALT}))(?![\w'-])")
_INTRODUCED = re.compile(r"(?:^|[.!?,]\s*|\b(?i:all|everyone|there)[.!,]?\s+)(?i:I'm|I\s+am|this\s+is|meet|it's)\s+$")

_TYPE_ORDER = ("person", "organization", "place", "project", "thing")


@functools.lru_cache(maxsize=8192)
def _key(name: str) -> str:
    k = re.sub(r"[^\w\s']+", " ", name.casefold())
    k = " ".join(k.split())
    return k[4:] if k.startswith("the ") else k


@dataclass
class _Mention:
    start: int
    end: int
    surface: str
    key: str


@dataclass
class _Ent:
    name: str
    key: str
    order: int
    votes: dict[str, float] = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    count: int = 0
    speaker: bool = False
    titled: bool = False
    kin_named: set[tuple[str, str]] = field(default_factory=set)   # ("Maya", "sister"): Maya's sister
    kin_unnamed: tuple[str, str] | None = None                    # this entity is "Maya's sister"

    def settle(self, type_: str) -> None:
        """What the sentence's shape proves it is ("Acme's CFO": an organisation; who holds a post,
        or is handed work: a person): that type, above every vote for another."""
        self.votes[type_] = max(self.votes.values(), default=0.0) + 1.0

    @property
    def type(self) -> str:
        if not self.votes:
            return "thing"
        best = max(self.votes.values())
        return next(t for t in _TYPE_ORDER if self.votes.get(t, 0.0) == best)


class _Registry:
    """The episode's entities, by key, in order of first mention; merged at the end."""

    def __init__(self) -> None:
        self.by_key: dict[str, _Ent] = {}
        self.alias_of: dict[str, str] = {}  # key -> key of the entity it was merged into
        self._order = 0
        # (nickname, person) keys said to be one ("everyone calls her Liz": nicknames.py)
        self.nicknames: list[tuple[str, str]] = []
        # an organisation the group knows by another of its names, key -> its name ("Blue Harbour"
        # -> "Blue Harbour Fish Co"): what a name in a predicate is written as (parse._contact_at)
        self.known_as: dict[str, str] = {}
        # A person the conversation named before, by each of their names: their aliases ("Ollie" and
        # "Ollie Brennan": "Nadia's coach", said sessions before)
        self.known_aliases: dict[str, tuple[str, ...]] = {}

    def add(self, name: str, votes: dict[str, float] | None = None, *, speaker: bool = False,
            titled: bool = False) -> str | None:
        key = _key(name)
        if not key or len(key) > 80:
            return None
        ent = self.by_key.get(key)
        if ent is None:
            if len(self.by_key) >= MAX_ENTITIES * 2:
                return None
            ent = _Ent(name=name, key=key, order=self._order, speaker=speaker, titled=titled)
            self._order += 1
            self.by_key[key] = ent
        ent.count += 1
        for t, v in (votes or {}).items():
            ent.votes[t] = ent.votes.get(t, 0.0) + v
        return key

    def root(self, key: str) -> str:
        seen = 0
        while key in self.alias_of and seen < 8:
            key = self.alias_of[key]
            seen += 1
        return key

    def get(self, name_or_key: str) -> _Ent | None:
        key = self.root(_key(name_or_key))
        return self.by_key.get(key)

    def canonical(self, name: str) -> str:
        ent = self.get(name)
        return ent.name if ent else name

    def absorb(self, small: _Ent, big: _Ent) -> None:
        """`small` is `big` (found once the episode's names were merged: parse.py)."""
        self._absorb(small, big)

    def _absorb(self, small: _Ent, big: _Ent) -> None:
        self.alias_of[small.key] = big.key
        for t, v in small.votes.items():
            if t != "thing":
                big.votes[t] = big.votes.get(t, 0.0) + v
        big.count += small.count
        for a in [small.name, *small.aliases]:
            if _key(a) != big.key and a not in big.aliases:
                big.aliases.append(a)
        big.kin_named |= small.kin_named

    def merge(self) -> None:
        """Short person names into the one longer name they start ("Mel" -> "Melanie Hart"),
        a surname into its titled or full name, and "Maya's sister" into the one named sister;
        first, a nickname into the person said to go by it."""
        for nick, full in self.nicknames:
            small, big = self.by_key.get(self.root(nick)), self.by_key.get(self.root(full))
            if small is not None and big is not None and small is not big and not small.speaker:
                small.votes.pop("organization", None)  # "Rahul" was typed an organisation
                self._absorb(small, big)
        ents = sorted(self.by_key.values(), key=lambda e: e.order)
        persons = [e for e in ents if e.type == "person"]
        # "Mr Okafor" and "Samuel Okafor", "Dr Lin" and "Dr Sarah Lin": one person, when one full
        # name has that surname, and the title does not say another sex ("Mrs Adeyemi" is not
        # her son Amir Adeyemi)
        for titled in [e for e in persons if e.titled and len(e.key.split()) == 2 and not e.speaker]:
            full = [e for e in persons if e is not titled and len(e.key.split()) > 1 + e.titled
                    and e.key.split()[-1] == titled.key.split()[-1] and e.key not in self.alias_of]
            sex = kin_gender(titled.name)
            if len(full) == 1 and titled.key not in self.alias_of and sex in (None, kin_gender(full[0].name)):
                self._absorb(titled, full[0])
        persons = [e for e in persons if e.key not in self.alias_of]
        for small in ents:
            if small.speaker or " " in small.key or small.key in self.alias_of or small.kin_unnamed:
                continue
            other_votes = max((v for t, v in small.votes.items() if t not in ("person", "thing")),
                              default=0.0)
            if other_votes >= 4 or len(small.key) < 2 or (small.name.isupper() and len(small.name) > 1):
                continue  # "PR" is no short name of Priya's
            targets = []
            for big in persons:
                if big is small or big.key in self.alias_of or big.kin_unnamed:
                    continue
                toks = big.key.split()
                first = toks[1] if big.titled and len(toks) > 1 else toks[0]
                if (first != small.key and first.startswith(small.key)) or \
                        (len(toks) > 1 and (first == small.key or toks[-1] == small.key)):
                    targets.append(big)
            if len({t.key for t in targets}) == 1:
                self._absorb(small, targets[0])
        self._merge_trade_names(ents)
        # "my father Raj" and "Dad" are one: the kin compared by the role they name (SAME_ROLE).
        def role(kin: tuple[str, str]) -> tuple[str, str]:
            return kin[0], lx.SAME_ROLE.get(kin[1], kin[1])

        for e in ents:
            if not e.kin_unnamed or e.key in self.alias_of:
                continue
            named = [n for n in ents if role(e.kin_unnamed) in {role(k) for k in n.kin_named}
                     and n.key not in self.alias_of]
            if len(named) == 1:
                self._absorb(e, named[0])

    def _merge_trade_names(self, ents: list[_Ent]) -> None:
        """A firm's name without its trade into the one firm it names ("Halden" -> "Halden
        Architects", "Brightwave" -> "Brightwave Coffee"), unless it is a place ("Lisbon")."""
        firms: dict[str, list[_Ent]] = {}
        for big in ents:
            if big.type != "organization" or big.key in self.alias_of:
                continue
            head, _, trade = big.key.rpartition(" ")
            while head and trade in lx.ORG_SUFFIXES:  # "Blue Harbour Fish Co.": "Blue Harbour Fish", "Blue Harbour"
                firms.setdefault(head, []).append(big)
                head, _, trade = head.rpartition(" ")
        for small in ents:
            targets = firms.get(small.key, [])
            if small.speaker or small.key in self.alias_of or len(targets) != 1 or small.key in lx.PLACES:
                continue
            small.votes.pop("person", None)  # "Halden" alone was typed a person
            small.votes.pop("place", None)  # "Blue Harbour" a place, by its last word
            self._absorb(small, targets[0])

    def drafts(self, used: set[str]) -> list[EntityDraft]:
        out: list[EntityDraft] = []
        for e in sorted(self.by_key.values(), key=lambda e: e.order):
            if e.key in self.alias_of or (e.key not in used and not e.speaker):
                continue
            out.append(EntityDraft(name=e.name, type=e.type, aliases=list(e.aliases[:10])))
            if len(out) >= MAX_ENTITIES:
                break
        return out


def _speakers_kin(word: str, voice: _Voice, reg: "_Registry") -> str | None:
    """"Dad", "Mom" said as a name: the speaker's dad, registered as that kin (so that "my
    father Raj" takes it); its key."""
    k = reg.add(f"{voice.speaker}'s {word.lower()}", {"person": 9.0})
    if k:
        reg.by_key[k].kin_unnamed = reg.by_key[k].kin_unnamed or (voice.speaker, word.lower())
    return k


def _kin_owner(word: str, voice: _Voice, reg: "_Registry") -> str:
    """Whose "Raj's doctor" or "Dad's doctor" is: Raj, or the speaker's dad (_speakers_kin)."""
    if word.lower() not in lx.KIN_AS_NAME:
        return word
    _speakers_kin(word, voice, reg)
    return f"{voice.speaker}'s {word.lower()}"


_FEMALE_KIN = frozenset("""mum mom mother mommy mama grandma granny nana grandmother sister aunt auntie wife
daughter niece girlfriend stepmum stepmom stepmother stepsister stepdaughter""".split())
_MALE_KIN = frozenset("""dad father daddy papa grandpa grandfather brother uncle husband son nephew boyfriend
stepdad stepfather stepbrother stepson""".split())


def kin_gender(name: str) -> str | None:
    """"f" or "m" for a relative named by kinship ("Zoe's mum") or a name most often a woman's or
    a man's ("Ola Adeyemi", "Mrs Patel", "Daniel Ferreira"), else None (Sam, Alex: either)."""
    if "'s " in name:
        word = name.rsplit(" ", 1)[-1].lower()
        return "f" if word in _FEMALE_KIN else "m" if word in _MALE_KIN else None
    words = name.lower().replace(".", "").split()
    # (a title that says none, then the given name: "Dr Martin Okafor" is a man's)
    first = words[1] if len(words) > 2 and words[0] in ("dr", "doctor", "prof", "professor", "rev", "revd",
                                                           "reverend", "nurse", "coach") else words[0] if words else ""
    if first in ("mrs", "ms", "miss", "madam"):
        return "f"
    if first in ("mr", "sir"):
        return "m"
    return "f" if first in lx.FEMALE_NAMES else "m" if first in lx.MALE_NAMES else None


def _owner(det: str, owner: str | None, voice: _Voice) -> str | None:
    if owner:
        return owner
    d = det.lower()
    if d in ("my", "our"):
        return voice.speaker
    return voice.other  # "your": only when it is clear who "you" is


def _cap(tok: str) -> bool:
    return tok[:1].isupper()


# A post written with capitals, as business notes write it ("Priya Nair is the Director of IT at
# Northwind", "promoted to VP of Engineering"): no name. "Director" became an entity, and the
# sentence no fact at all.
_DEPARTMENTS = (r"Engineering|IT|Operations|Ops|Sales|Marketing|Finance|Product|Support|Customer\s+Success|HR|"
                r"People|Procurement|Legal|Security|Data|Design|Research|Technology|Infrastructure|Platform|"
                r"Partnerships|Growth|Revenue|Business\s+Development|Strategy|Communications|Talent|Learning")
_POST = re.compile(
    r"(?<![\w'])(?:(?i:is|was|'s|as|the|a|an|new|our|their|his|her|its|now|to|became|becomes|named|appointed)\s+)"
    r"(?P<post>(?:(?:Senior|Junior|Deputy|Assistant|Associate|Interim|Acting|Executive|Global|Regional|Group)\s+)*"
    r"(?:Vice\s+President|VP|SVP|EVP|Head|Chief\s+[A-Z]\w+\s+Officer|Director|Manager|Lead|Engineer|Officer|"
    r"Partner|Architect|Analyst|Consultant|Specialist|Coordinator|Administrator|Controller)"
    r"(?:\s+(?:of|for)\s+(?:" + _DEPARTMENTS + r")(?:\s+(?:and|&)\s+(?:" + _DEPARTMENTS + r"))?)?)(?![\w'])")


def _machine_made(text: str, tok: re.Match) -> bool:
    """A piece of a key, hash, token, id or link pasted into a message (base64, hex, a JWT, a
    URL's path): no name. Each capitalised piece of a base64 blob became an entity. Told by
    the run of text without spaces it is in: long, with several digits or changes of case
    inside words (names have few: McDonald, iPhone, PlayStation)."""
    start = text.rfind(" ", 0, tok.start()) + 1
    end = text.find(" ", tok.end())
    run = text[start:len(text) if end < 0 else end].strip(".,;:!?()[]{}\"'")
    if len(run) < 16:
        return False
    digits = sum(c.isdigit() for c in run)
    humps = sum(a.islower() and b.isupper() for a, b in zip(run, run[1:]))
    return digits >= 3 or humps >= 3


_KNOWN_TYPES = frozenset({"person", "place", "organization"})


def known_words(known: Sequence[EntityDraft]) -> set[str]:
    """The capitalised words of the people, places and organisations the conversation named
    before (its earlier cells): evidence that such a word is a name, as a capital after a
    sentence's first word is (_caps_after_first)."""
    out: set[str] = set()
    for e in known:
        if e.type not in _KNOWN_TYPES:
            continue
        for name in (e.name, *e.aliases):
            for m in _TOKEN.finditer(name):
                w = m.group()
                w = w[:-2] if w.endswith("'s") else w
                if _cap(w) and w.lower() not in _DROP and w.lower() not in lx.COMMON_WORDS:
                    out.add(w)
    return out


def vote_known(reg: "_Registry", known: Sequence[EntityDraft]) -> None:
    """An entity of this cell the conversation has named before keeps that type, unless this
    cell's own cues outweigh it: "Tom" alone has none, "Tom" the partner had. A new full name
    that begins with a known person's first name is a person's."""
    types: dict[str, str] = {}
    for e in known:
        if e.type in _KNOWN_TYPES:
            for name in (e.name, *e.aliases):
                types.setdefault(_key(name), e.type)
                if e.type == "organization" and name != e.name:
                    reg.known_as.setdefault(_key(name), e.name)
            if e.type == "organization":  # ... and by its name without its trade, said since
                head, _, trade = _key(e.name).rpartition(" ")  # ("Keyhouse" of "Keyhouse Lettings")
                while head and trade in lx.ORG_SUFFIXES:
                    if head not in lx.PLACES:
                        reg.known_as.setdefault(head, e.name)
                    head, _, trade = head.rpartition(" ")
            if e.type == "person" and " " in e.name:  # "Melanie" of "Melanie Hart"
                types.setdefault(_key(e.name.split()[0]), "person")
            if e.type == "person" and e.aliases:
                for name in (e.name, *e.aliases):
                    reg.known_aliases.setdefault(_key(name), tuple(e.aliases))
    for ent in reg.by_key.values():
        t = types.get(ent.key)
        if t is None and " " in ent.key and types.get(ent.key.split()[0]) == "person":
            t = "person"  # "Sofia Marques", where Sofia Rossi is known: a first name
        if t is not None and not ent.speaker:
            # (a firm's other name more: "Blue Harbour" is a place only by its last word)
            ent.votes[t] = ent.votes.get(t, 0.0) + _KNOWN_VOTE + (6.0 if ent.key in reg.known_as else 0.0)


# Weaker than this cell's own cues ("live in" is 4): a type told wrong once is not told again.
_KNOWN_VOTE = 3.0


def _caps_after_first(text: str) -> set[str]:
    """Capitalised words not at the start of the sentence: evidence that a word is a name."""
    out = set()
    for i, m in enumerate(_TOKEN.finditer(text)):
        if i and _cap(m.group()):
            w = m.group()
            if w.endswith("'s"):
                w = w[:-2]
            if w.lower() not in _DROP:
                out.add(w)
    return out


def find_entities(text: str, voice: _Voice, reg: _Registry, known_caps: set[str],
                  speakers: set[str], before: str | None = None) -> list[_Mention]:
    """The entity mentions of one (cleaned) sentence, registered in `reg` (`before`: the one
    person the turn's sentence before named, whom an opening "Her dad Raj" is of)."""
    mentions: list[_Mention] = []
    # "my sister", "Sam's boss", "my dog Max"
    named_kin: dict[int, tuple[str, str, bool]] = {}  # name start -> (owner, kin, is_pet)
    for m in _KIN_MENTION.finditer(text):
        owner = _owner(m.group("det"), m.group("owner"), voice)
        kin = m.group("kin").lower()
        is_pet = kin in lx.PETS
        if m.group("owner"):
            owner = _kin_owner(m.group("owner"), voice, reg)
            k = reg.add(owner, {"person": 9.0 if owner != m.group("owner") else 5.0})
            if k:
                mentions.append(_Mention(m.start("owner"), m.end("owner"), m.group("owner"), k))
        if owner is None:
            continue
        after = _NAMED_AFTER.match(text, m.end())
        if after and after.end() < len(text) and text[after.end()].isupper():
            nxt = _TOKEN.match(text, after.end())
            if nxt and nxt.group().lower() not in _DROP:
                named_kin[after.end()] = (owner, kin, is_pet)
                continue
        if kin in ("friends", "kids", "children", "parents", "siblings", "grandparents"):
            votes = {"person": 6.0}
        else:
            votes = {"thing" if is_pet else "person": 9.0}
        name = f"{owner}'s {kin}"
        k = reg.add(name, votes)
        if k:
            reg.by_key[k].kin_unnamed = reg.by_key[k].kin_unnamed or (owner, kin)
            mentions.append(_Mention(m.start(), m.end(), text[m.start():m.end()], k))

    posts = [(m.start("post"), m.end("post")) for m in _POST.finditer(text)]
    toks = [t for t in _TOKEN.finditer(text) if not _machine_made(text, t)
            and not any(a <= t.start() < b for a, b in posts)]
    i = 0
    while i < len(toks):
        if not _cap(toks[i].group()):
            i += 1
            continue
        group = [i]
        j = i + 1
        while j < len(toks) and (not toks[j - 1].group().endswith("'s")
                                 or toks[j].group().lower() in lx.ORG_SUFFIXES | lx.PLACE_SUFFIXES):
            gap = text[toks[j - 1].end():toks[j].start()]
            prev = toks[j - 1].group().lower()
            # "Crumb & Co", "Dean & Sons": a firm's name; "Tom & Lena" stays two people.
            # "Harper & Lowe", "Marks & Spencer": with "&", one firm unless both are given names.
            if (gap in (" & ", " and ") and _cap(toks[j].group())
                    and (toks[j].group().lower() in lx.ORG_SUFFIXES | {"sons", "daughters"}
                         or (gap == " & " and not (prev in lx.GIVEN_NAMES
                                                   and toks[j].group().lower() in lx.GIVEN_NAMES)))):
                group.append(j)
                j += 1
                continue
            if gap == " " and prev in lx.NUMBERED_PLACES and _UNIT_NUMBER.fullmatch(
                    re.sub(r"['’]s$", "", toks[j].group())):
                group.append(j)  # "Flat 3", "Unit 4B": the number is the name's; it ends it
                j += 1
                break
            if gap == " " and _numbered_name(text, toks, i, j):
                group.append(j)  # "the Frostbite 50", "ThinkPad X1 Carbon Gen 12": the number ends the name
                j += 1
                break
            if gap == " " or (gap == ". " and prev in lx.TITLES | {"st", "mt", "jr"}):
                if _cap(toks[j].group()):
                    group.append(j)
                    j += 1
                    continue
                if (toks[j].group() in lx.NAME_CONNECTORS and j + 1 < len(toks)
                        and _cap(toks[j + 1].group())
                        and text[toks[j].end():toks[j + 1].start()] == " "):
                    group += [j, j + 1]
                    j += 2
                    continue
            break
        if (i and toks[group[-1]].group().lower() in lx.STREETS and len(group) > 1
                and _UNIT_NUMBER.fullmatch(toks[i - 1].group()) and text[toks[i - 1].end():toks[i].start()] == " "):
            group.insert(0, i - 1)  # "14 Elm Road": a house's number is its address's
        for chunk in _chunks(group, toks):
            mention = _group_mention(text, toks, chunk, voice, reg, known_caps, speakers, named_kin)
            if mention:
                mentions.append(mention)
        i = j
    mentions.sort(key=lambda m: (m.start, -m.end))
    out: list[_Mention] = []
    for m in mentions:
        if not out or (m.start, m.key) != (out[-1].start, out[-1].key):
            out.append(m)
    _their_kin(text, out, reg, before)
    return out


# A number that is a name's last word: after a model's word ("Gen 12", "Series 7"), or after a name
# said with "the" when nothing follows it but the sentence's next clause ("the Frostbite 50, it's on
# Sunday", "the Ridgeway 100 on Saturday"); "paid Kwame 50 quid", "the Saturday 14 November" keep theirs.
_MODEL_WORDS = frozenset("gen generation series mark mk model version edition".split())
_DAY_WORDS = lx.WEEKDAYS | lx.MONTHS | lx.WEEKDAYS_SHORT  # (once: the check runs per pair of a name's tokens)
_NAME_NUMBER = re.compile(r"\d{1,4}[a-zA-Z]?")
_THE_BEFORE = re.compile(r"(?<![\w'])(?i:the)\s+$")
_AFTER_NAME_NUMBER = re.compile(r"\s*(?:[,.;:!?)]|$)|\s+(?:on|in|at|is|was|will|this|next|last|and|or|but|"
                                r"with|for|starts|begins|takes|got|has|had|sold|went|said)\b")


def _numbered_name(text: str, toks: list[re.Match], first: int, j: int) -> bool:
    prev = toks[j - 1].group().lower()
    if not _NAME_NUMBER.fullmatch(toks[j].group()):
        return False
    if prev in _MODEL_WORDS:
        return j - 1 > first
    said_with_the = toks[first].group() == "The" or _THE_BEFORE.search(text, 0, toks[first].start())
    return (prev not in _DAY_WORDS and bool(said_with_the)
            and bool(_AFTER_NAME_NUMBER.match(text, toks[j].end())))


_PAST_FIRST = frozenset("paid sent got took made told bought sold left found met had gave wrote brought".split())
_UNIT_NUMBER = re.compile(r"\d{1,4}[A-Za-z]?|[A-Z]")

# "her husband Marco", "his boss Jonas": whose is the one person named before it in the sentence.
_THEIR_KIN = re.compile(rf"(?<![\w'])(?i:her|his)\s+(?P<kin>(?i:{_KIN_ALT}))(?![\w'-])")


def _their_kin(text: str, mentions: list[_Mention], reg: "_Registry", before_turn: str | None = None) -> None:
    """"My sister Anika lives in Lisbon with her husband Marco": Marco is Anika's husband (a
    standing alias, as "my husband Marco" gives), when one person is named before "her" in the
    sentence; with two ("Maya told Ana about her husband Tom"), nobody's. Said first in a
    sentence, of the one person the sentence before named, when "her" or "his" fits them
    ("Maya Patel joined the squad. Her dad Raj will help with lifts": Maya's dad)."""
    for m in _THEIR_KIN.finditer(text):
        kin = m.group("kin").lower()
        after = _NAMED_AFTER.match(text, m.end())
        named = next((mm for mm in mentions if after and mm.start == after.end()), None)
        if kin not in lx.UNIQUE_KIN or named is None:
            continue
        # Names typed "thing" count too: they may be people still ("I met Sarah and Nadia").
        before = {reg.root(mm.key) for mm in mentions if mm.end <= m.start()
                  and (e := reg.get(mm.key)) is not None and e.type in ("person", "thing")}
        ent = reg.get(named.key)
        owner = reg.by_key[next(iter(before))] if len(before) == 1 else None
        if not before and m.start() == 0 and before_turn is not None and kin_gender(before_turn) in (
                None, "f" if text[:3].lower() == "her" else "m"):
            owner = reg.get(before_turn)
        if owner is None or owner.type != "person" or ent is None or ent.speaker or ent is owner:
            continue
        owner = owner.name
        ent.kin_named.add((owner, kin))
        alias = f"{owner}'s {kin}"
        if alias not in ent.aliases and _key(alias) != ent.key:
            ent.aliases.append(alias)


_PLACE_PREPOSITIONS = frozenset("at from to with near called named".split())


def _named_after_place(c: list[int], toks: list[re.Match]) -> bool:
    """A name of three or more words after "at", "from"... whose first is a word of greeting or
    feeling ("the dogs at Happy Tails Kennel", "from Good Boy Grooming"): that word is the name's."""
    first = toks[c[0]]
    return (len(c) >= 3 and c[0] > 0 and first.group().lower() in lx.INTERJECTIONS - lx.STOPWORDS
            and toks[c[0] - 1].group().lower() in _PLACE_PREPOSITIONS
            and first.string[toks[c[0] - 1].end():first.start()] == " ")


_AMPERSAND = re.compile(r"\s*&\s*")


def _chunks(group: list[int], toks: list[re.Match]) -> list[list[int]]:
    out: list[list[int]] = [[]]
    for idx in group:
        if _POSSESSIVE.sub("", toks[idx].group().lower()) in _SPLIT_AT:  # ("Tomorrow's the Roundhouse")
            out.append([])
        else:
            out[-1].append(idx)
    res = []
    for c in out:
        while c and toks[c[0]].group().lower().rstrip(".") in _DROP_FIRST and not _named_after_place(c, toks):
            c = c[1:]
        if len(c) > 2 and toks[c[0]].group().lower() in lx.ORG_ROLES and toks[c[1]].group() in lx.NAME_CONNECTORS:
            c = c[2:]  # "the CTO of Hooli Systems": a post at the organisation, which is the name
        while c and (toks[c[-1]].group().lower() in _DROP or toks[c[-1]].group() in lx.NAME_CONNECTORS
                     or (toks[c[-1]].group().isupper() and toks[c[-1]].group().lower() in _ROLE_WORDS)) \
                and not (len(c) > 1 and _AMPERSAND.fullmatch(toks[c[-1]].string, toks[c[-2]].end(), toks[c[-1]].start())):
            # (a firm's word after "&" is its name's: "Mezze & More" had been the thing "Mezze")
            c = c[:-1]  # "Mum's GP", "Acme's CFO": a role of theirs, not part of a name
        if c and toks[c[0]].group() in ("VP", "SVP", "EVP"):
            continue  # "VP Ops", "VP Sales": a post, not a name
        if len(c) == 1 and re.sub(r"['’]s$", "", toks[c[0]].group().lower()) in lx.WEEKDAYS_SHORT | lx.WEEKDAYS:
            continue  # "Mon/Wed/Fri mornings", "Thursday's viewing": days, not names
        if c:
            res.append(c)
    return res


def _group_mention(text: str, toks: list[re.Match], chunk: list[int], voice: _Voice, reg: _Registry,
                   known_caps: set[str], speakers: set[str],
                   named_kin: dict[int, tuple[str, str, bool]]) -> _Mention | None:
    start, end = toks[chunk[0]].start(), toks[chunk[-1]].end()
    words = [toks[c].group() for c in chunk]
    possessive_s = False
    if words[-1].endswith("'s") and (_POSSESSED.match(text, end) or (
            _OWNED_IS.search(text, 0, start) and _CLAUSE_ENDS.match(text, end))):  # ("the hives are Len Ford's,")
        words[-1] = words[-1][:-2]
        end -= 2
        possessive_s = True
    elif words[-1].endswith("'"):
        words[-1] = words[-1][:-1]
        end -= 1
    name = text[start:end].strip(" -'&")
    low = [w.lower() for w in words]
    if not name or len(name) < 2 or all(w in lx.DEMONYMS for w in low):
        return None
    if len(words) == 1 and _TICKET.fullmatch(name):  # "PLAT-4821", "#A-10293": a ticket, an order
        k = reg.add(name, {"thing": 9.0})
        return _Mention(start, end, name, k) if k else None
    if all(_shouted(w, known_caps, speakers) for w in words):
        return None  # "the LEFT ear", "my DRESSING GOWN": emphasis, not a name
    if len(words) == 1:
        w = words[0]
        if w.isupper() and len(w) > 1 and (w.lower() in _EMPHASIS or len(w) > 6 or low[0] in lx.KIN
                                           or low[0] in lx.ORG_ROLES):
            return None  # "GP", "CFO": a role (its holder is whoever "Mum's GP" names), not a name
        if low[0] in lx.KIN_AS_NAME:
            k = _speakers_kin(w, voice, reg)
            return _Mention(start, end, name, k) if k else None
        if low[0].rstrip(".") in lx.TITLES - lx.KIN:
            # a title alone is no name; with a surname typed in lower case, the titled person known
            # by it ("dr green wants her on ...": "Dr" had done "green")
            surname = _LOWER_SURNAME.match(text, end)
            found = surname and next((k for k, e in reg.by_key.items() if e.type == "person" and len(
                ws := k.split()) >= 2 and ws[0] == low[0].rstrip(".") and ws[-1] == surname.group(1)), None)
            return _Mention(start, surname.end(), text[start:surname.end()], found) if found else None
    is_speaker = name in speakers
    appos = _APPOS.match(text, end) or (_INTRO_APPOS.match(text, end) if _INTRODUCED.search(text, 0, start) else None)
    if appos and start not in named_kin:
        det = appos.group("det")
        if appos.group("owner"):  # "Dr. Okafor is Dad's doctor", "Mark is Raj's coach"
            owner = _kin_owner(appos.group("owner"), voice, reg)
        else:
            owner = _owner(det, None, voice) if det.lower() in ("my", "our", "your") else None
        kin_word = appos.group("kin").lower()
        named_kin[start] = (owner or "", kin_word, kin_word in lx.PETS)
    first_token = chunk[0] == 0
    if first_token and not is_speaker and name.lower() not in lx.PLACES:
        if len(words) == 1:
            if not appos and not _initial_is_name(text, end, words[0], known_caps, possessive_s):
                return None
        elif (low[0].endswith(("ed", "ing", "ly")) or low[0] in _PAST_FIRST) and words[0] not in known_caps \
                and low[0] not in lx.GIVEN_NAMES:  # ("Paid Kwame's invoice": Kwame)
            return _group_mention(text, toks, chunk[1:], voice, reg, known_caps, speakers, named_kin) \
                if len(chunk) > 1 else None
    votes = _type_votes(text, start, end, words, low, is_speaker, possessive_s)
    titled = low[0].rstrip(".") in lx.TITLES and len(words) > 1
    kin = named_kin.get(start)
    if kin:
        owner, rel, is_pet = kin
        votes["thing" if is_pet else "person"] = votes.get("thing" if is_pet else "person", 0.0) + 9.0
    k = reg.add(name, votes, speaker=is_speaker, titled=titled)
    if not k:
        return None
    if kin and owner:
        ent = reg.by_key[k]
        ent.kin_named.add((owner, rel))
        if is_pet or rel in lx.UNIQUE_KIN:
            alias = f"{owner}'s {rel}"
            if alias not in ent.aliases and _key(alias) != k:
                ent.aliases.append(alias)
    return _Mention(start, end, name, k)


_TICKET = re.compile(lx.TICKET_ID)
_LOWER_SURNAME = re.compile(r"\.?\s+([a-z][a-z'-]+)\b")


# What a name is, said right after it: "Gareth Price the plumber", "TalentBridge, the agency Megan
# Cole runs", "Harbourside, our insurer".
_ORG_NOUNS = frozenset("""agency company firm insurer bank broker business startup supplier vendor client customer
employer charity school clinic practice consultancy landlord-agency letting-agent studio shop cafe café bakery
restaurant pub bar deli gym salon brewery publisher garage""".split())
_A_POST = re.compile(
    # ("brought in Farid Nasser as structural engineer": a post, with no article)
    r"^(?:(?:,?\s+(?i:the|our|my|an?|his|her|their)|\s+as(?:\s+(?i:the|our|my|an?|his|her|their))?)\s+|"
    # ("Beverley Moss (lab technician) told me ...": the post in brackets)
    r"\s*\(\s*(?:(?i:the|our|my|an?|his|her|their)\s+)?)"
    r"(?:[a-z][\w-]*\s+){0,2}?(?P<noun>"
    + _alt(lx.PROFESSIONS | _ORG_NOUNS | {"plumber", "landlord", "tenant", "agent", "contractor", "roofer",
                                          "handyman", "recruiter", "candidate", "guarantor", "owner"})
    + r")\b")

# Whom someone's post names: "my editor there is Martha Kiel", "our new accountant is Dana Reyes".
_B_POST_IS = re.compile(r"\b(?i:my|our|his|her|their)\s+(?:(?i:new|current)\s+)?(?P<noun>"
                        + _alt(lx.PROFESSIONS) + r")(?:\s+(?i:there|here|now))?\s+(?i:is|was)\s+$")

# "the hives are Len Ford's, he's our beekeeper": whose they are, said after "are" (not a name "Len Ford's").
_OWNED_IS = re.compile(r"\b(?:is|are|was|were)\s+$", re.I)
_CLAUSE_ENDS = re.compile(r"\s*(?:[,;.!?)]|$)")
# "Anna's husband", "Google's office": a possessive; "at Luigi's on Friday": part of the name.
_POSSESSED = re.compile(r"\s+(?!(?:on|at|in|with|and|for|to|or|but|from|by|near|tonight|today|"
                        # ("Mochi's T4 is normal")
                        r"tomorrow|yesterday|last|next|this)\b)(?:[a-z]|[A-Z]{2,}(?![\w'])|[A-Z]{1,2}\d)")
_NEXT_WORD = re.compile(rf"\s+([a-z](?:{LETTER}|')*)(?:\s+({LETTER}+))?")
_PERSON_NEXT = frozenset("""
said says told tells asked asks texted called thinks thought wants wanted helped helps loves
loved likes liked is was has had and who will would can could just always never really also
hates hated prefers preferred adores dislikes
""".split())
# After "is" or "was", what is said only of a person: "Tom is vegan", "Laura is allergic to ...".
_PERSON_STATE = frozenset("""
vegan vegetarian pescatarian allergic pregnant diabetic coeliac celiac intolerant lactose married
engaged divorced widowed retired
""".split())


# English words written with a letter beyond a-z (the first word of a sentence that is one of
# these is no name: "Café was packed").
_ACCENTED_WORDS = frozenset("""café cafés résumé resumé naïve naïvely fiancé fiancée déjà entrée crème rosé
jalapeño jalapeños piñata façade soirée protégé cliché décor doppelgänger über señor señora señorita
crêpe crêpes pâté touché voilà élan éclair éclairs mañana smörgåsbord fête purée sauté sautéed
flambé consommé attaché négligée rôle coöperate naïveté""".split())

_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f'-]+")  # Latin letters: "Μg" (a Greek mu) is no name

_NOT_OWNERS = frozenset("""how what where who when why that there here it let this everything
nothing someone somebody everyone everybody anyone anybody something""".split())


def _shouted(word: str, known_caps: set[str], speakers: set[str]) -> bool:
    """An English word in capitals for emphasis: one with a vowel (LGBT, NHS stay acronyms) that
    the cell does not also write as a name (TOBIAS, said shouting, is Tobias)."""
    if not (word.isupper() and word.isalpha() and len(word) >= 4) or not set(word) & set("AEIOUY"):
        return False
    name = word.title()
    return word.lower() in lx.ENGLISH_WORDS and name not in known_caps and name not in speakers


def _initial_is_name(text: str, end: int, word: str, known_caps: set[str], possessive_s: bool) -> bool:
    """A capitalised first word of a sentence: a name only with some evidence."""
    if word in known_caps:
        return True
    lw = word.lower()
    if (lw.endswith(("ly", "ing")) or lw in lx.COMMON_WORDS or lw in lx.KIN or lw in lx.PETS
            or lw in lx.PROFESSIONS or lw in lx.TRADES):
        return False  # ("Florist sorted!": no firm called Florist)
    if possessive_s:
        return lw not in _NOT_OWNERS  # "How's Rosa", "That's it": a contraction, not a possessive
    m = _NEXT_WORD.match(text, end)
    if not m:
        return False
    nxt, nxt2 = m.group(1), (m.group(2) or "").lower()
    if nxt == "and" and nxt2 in ("i", "me"):
        return True
    if nxt in ("is", "was", "'s") and nxt2 in _PERSON_STATE:
        return True  # "Tom is vegan.": what is said of a person, of no noun ("Lunch is allergic")
    if lw in lx.GIVEN_NAMES and not word.isupper():
        return True  # "Laura hates phone calls": a given name, which no common word is
    if nxt in ("is", "are") and nxt2 in ("our", "my", "their") and lw not in lx.ENGLISH_WORDS:
        return True  # "Goalline is our kit supplier from now on": who holds a post, by a word no English one
    if nxt in ("is", "was", "has", "had", "and", "will", "would", "can", "could", "just",
               "always", "never", "really", "also"):
        # "Work is hard", "Dinner was great": too often a plain noun; but English writes no noun
        # with a letter beyond a-z, except a few loanwords: "José is coming", "Zoë has a job".
        return not lw.isascii() and bool(_LATIN_WORD.fullmatch(word)) and lw not in _ACCENTED_WORDS
    return nxt in _PERSON_NEXT or (nxt.endswith("ed") and len(nxt) > 3)


def _type_votes(text: str, start: int, end: int, words: list[str], low: list[str], is_speaker: bool,
                possessive_s: bool) -> dict[str, float]:
    votes: dict[str, float] = {}

    def vote(t: str, v: float) -> None:
        votes[t] = max(votes.get(t, 0.0), v)

    name_low = " ".join(low)
    if is_speaker:
        vote("person", 20.0)
    if name_low in lx.KNOWN_ORGS:  # "shipped with DHL": a carrier, not whom it went with
        vote("organization", 12.0)
    if low[0].rstrip(".") in lx.TITLES and len(low) > 1:
        vote("person", 9.0)
    if low[0] in lx.KIN_TITLES and len(low) > 1:
        vote("person", 9.0)
    last = low[-1]
    if last in lx.ORG_SUFFIXES or any(w in lx.ORG_HEADS for w in low) or " & " in text[start:end]:
        vote("organization", 9.0)
    elif (last in lx.PLACE_SUFFIXES or last in lx.STREETS) and len(low) > 1:
        vote("place", 8.0)
    elif low[0] in lx.NUMBERED_PLACES and _UNIT_NUMBER.fullmatch(words[-1]):
        vote("place", 8.0)
    if name_low in lx.PLACES:
        vote("place", 8.0)
    if low[0] in lx.GIVEN_NAMES and name_low not in lx.PLACES and last not in lx.ORG_SUFFIXES:
        vote("person", 5.0 if len(low) > 1 else 3.0)  # "Tom Baker", "Laura": a given name, most likely
    before = text[max(0, start - 48):start]
    after = text[end:end + 40]
    if _B_KIN_END.search(before):
        vote("person", 9.0)
    if _PET_NAMED.search(before):
        vote("thing", 8.0)
    if _A_PERSON.match(text[end - 2:end + 40] if possessive_s else after):
        vote("person", 6.0)
    if _A_PERSON_NOT.match(after):
        vote("person", 5.0)
    if _A_PRONOUN.match(text[end:end + 60]):
        vote("person", 4.0)
    called = _CALLED.search(before)
    if called:
        # "a studio called X" is not someone being called (_B_PERSON's "called").
        noun = called.group("noun").lower()
        vote(_CALLED_TYPE.get(noun, "person" if noun in lx.KIN else "thing"), 7.0)
    elif _B_PERSON.search(before):
        vote("person", 6.0)
    if possessive_s and len(words) == 1:
        vote("person", 2.0)
    if possessive_s and _OWNED_IS.search(text, 0, start):
        vote("person", 5.0)  # "the hives are Len Ford's": whose they are, someone's
    if possessive_s and _A_ORG_OWNS.match(text, end + 2) and low[0] not in lx.GIVEN_NAMES:
        vote("organization", 7.0)  # "Harbor's main contact", "Brightwave's admin": an account's
    appos = _A_POST.match(after)
    if appos:  # "Gareth Price the plumber", "TalentBridge, the agency Megan runs"
        noun = appos.group("noun").lower()
        vote("organization" if noun in _ORG_NOUNS else "person", 7.0)
    if _B_POST_IS.search(before):  # "my editor there is Martha Kiel": a person
        vote("person", 7.0)
    if _B_HOWS.search(before):
        vote("person", 2.0)
    if _B_WITH.search(before):
        vote("person", 3.0)
    if _B_ORG.search(before):
        vote("organization", 7.0)
    if _B_PROJECT.search(before) or _A_PROJECT.match(after):
        vote("project", 7.0)
    if _B_PLACE.search(before):
        vote("place", 4.0)
    elif _B_AT.search(before):
        vote("place", 3.0)
    if not votes:
        vote("thing", 1.0)
    return votes
