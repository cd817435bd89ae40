"""Medication: what someone takes, and when it changes. "Dr. Lee has him on metformin",
"He takes 10 units of Lantus", "Dr. Lee switched Dad from metformin to insulin", "She came off
the statins": facts "takes" (a thing of several values at once: insulin beside a statin) and
"stopped taking", which ends the value it names (supersession.py), for whom the sentence says.
A dose said with it, or changed later ("bumped his insulin up to 12 units"), is a one-value
thing of that medication's: "insulin dose is" 12 units ends 10 units."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.bounds import _alt
from app.construction.local.entities import _Registry, kin_gender
from app.construction.local.fact_patterns import _I
from app.construction.local.sentence import _Parse, _Sentence

# ("upped the brown inhaler to 2 puffs twice a day": an inhaler by its colour)
_MED = (rf"(?:(?:his|her|my|their|the|a)\s+)?(?:new\s+)?(?:(?:brown|blue|purple|red|orange|pink|preventer|reliever)\s+)?"
        rf"({_alt(lx.MEDICATIONS)})(?![\w'-])")
_UNITS = r"mg|milligrams?|units?|ml|mcg|micrograms?|tablets?|pills?|puffs?|sachets?|scoops?|drops?|grams?|g"
_DOSE = (rf"(?:(?:[\d.]+|one|two|three|four|half\s+an?|a|an)\s*(?:{_UNITS}|doses?)(?![\w-])"
         r"\s+(?:of\s+)?)?")
# A dose as said: "12 units", "5mg", "two tablets", "half a sachet" (of a horse's bute).
# (a dose split over the day is one: "2 puffs in the morning and 1 puff at night", after "2 puffs twice a day")
_AMOUNT_ONE = rf"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|half\s+an?)\s*(?:{_UNITS})(?![\w-])"
_AMOUNT = (rf"({_AMOUNT_ONE}(?:\s+(?:in\s+the\s+morning|every\s+morning|at\s+breakfast)\s+and\s+{_AMOUNT_ONE}\s+"
           r"(?:at\s+night|in\s+the\s+evening|every\s+evening|at\s+bedtime))?)")
# Whose medication: a possessive, as a whom ("his insulin" is for him).
_WHOSE = r"(his|her|my|our|their|[A-Z][\w-]*(?:'s|’s))"
_WHOSE_AS_WHOM = {"his": "him", "her": "her", "my": "me", "our": "us", "their": "them"}
_WHOSE_AS_WHO = {"his": "he", "her": "she", "my": "I", "our": "we", "their": "they"}
# A dose changed: "bumped his insulin up to 12 units", "Dad's metformin dose went down to 500 mg".
# (not "we", the household, of its pet's dose; nor one of two named for it: "Tom and Biscuit can go down")
_WHO_GOES = r"(?<![\w'])(?<!\band\s)(I|he|she|they|(?-i:[A-Z])[\w'-]*)(?!\s+and\s)"
_DOSE_TO = re.compile(
    rf"(?:\b(?:bumped|increased|raised|upped|put|lowered|reduced|cut|decreased|dropped|changed|adjusted|"
    rf"doubled|halved|upping|increasing|raising|lowering|reducing)\s+(?:up\s+|down\s+)?{_WHOSE}\s+(?:daily\s+|"
    rf"nightly\s+|morning\s+|evening\s+)?{_MED}(?:\s+(?:dose|dosage))?|(?<![\w']){_WHOSE}\s+(?:daily\s+|"
    rf"nightly\s+)?{_MED}(?:\s+(?:dose|dosage))?\s+(?:is\s+now|is|went|goes|has\s+gone|'s\s+gone|got\s+"
    rf"(?:bumped|increased|raised|upped|lowered|reduced|cut|decreased|dropped|changed))\s*)\s+(?:up\s+|down\s+|"
    rf"back\s+)?(?:to|at)?\s*{_AMOUNT}", _I)
# ... said of whom takes it: "he can go down to 5.4 mg of Apoquel a day", "she's going down to
# 2.5 mg once a day of methimazole" (each was a "said" fact, the old dose current).
_GOES_TO = re.compile(
    rf"{_WHO_GOES}(?:\s+(?:is|can|will|could|should)|'s|'ll|'re)?(?:\s+(?:now|finally))?\s+(?:go|goes|going|went|"
    r"come|comes|coming|drop|drops|dropping|dropped)\s+(?:back\s+)?(?:down|up)\s+to\s+"
    rf"{_AMOUNT}\s+(?:[\w,]+\s+){{0,4}}?of\s+{_MED}", _I)
# ... or by whoever prescribes it, of "the" medication: "she's lowering the Apoquel to 8 mg once a day".
_THE_DOSE_TO = re.compile(
    r"\b(?:bumped|increased|raised|upped|put|lowered|reduced|cut|decreased|dropped|halved|doubled|upping|increasing|"
    r"changed|changing|adjusted|adjusting|"  # ("They've changed the brown inhaler to 2 puffs in the morning ...")
    # (as told to do: "Dr Helen Okafor said to drop the warfarin to 4mg a day")
    r"raising|lowering|reducing|cutting|dropping|(?<=to\s)(?:drop|lower|reduce|increase|raise|cut|put|up|bump))\s+"
    rf"(?:up\s+|down\s+)?the\s+{_MED}(?:\s+(?:dose|dosage))?\s+"
    rf"(?:up\s+|down\s+|back\s+)?to\s+{_AMOUNT}", _I)
# ... or of "the" medication's dose going up, of whom the sentence names ("Isla's 14kg now so the cetirizine
# dose goes up to 5ml once a day"), else its taker.
_THE_DOSE_GOES = re.compile(rf"\bthe\s+{_MED}\s+(?:dose|dosage)\s+(?:goes|went|is\s+going|has\s+gone|'s\s+going|"
                            rf"is\s+now|is)\s+(?:up\s+|down\s+)?(?:to\s+)?{_AMOUNT}", _I)
# ... or told alone, of whom was named before: "Geoff takes blood pressure tablets." "Felodipine, 5mg
# every morning." (no fact of it at all)
_MED_ALONE = re.compile(rf"^{_MED}\s*,?\s*{_AMOUNT}(?=\s+(?:every|each|a|at|in|twice|once|daily|nightly|per)\b|"
                        r"\s*(?:[.,;!]|$))", _I)
# ... or changed as "it", of the one medication the episode said was taken: "Dr Hughes rang yesterday and
# reduced it to 7.5mg".
_IT_TO = re.compile(r"\b(?:bumped|increased|raised|upped|put|lowered|reduced|cut|decreased|dropped|halved|doubled|"
                    r"changed)\s+it\s+(?:again\s+)?(?:up\s+|down\s+|back\s+)?(?:to\s+|(?:again\s*)?,\s*)"
                    rf"{_AMOUNT}", _I)  # ("Dr Okafor has lowered it again, 3.5mg now")
# A dose beside what is taken: "10 units of Lantus", "on insulin, 10 units every night".
_DOSE_BEFORE = re.compile(rf"{_AMOUNT}\s+(?:of\s+)?$", _I)
_DOSE_AFTER = re.compile(rf"^\s*(?:,\s*|\s+at\s+|\s+|\s+for\s+(?:[\w'-]+\s+){{0,2}}[\w'-]+\s*,\s*)(?:about\s+)?{_AMOUNT}",
                         _I)  # ("I'm on warfarin for my AF, 5mg every evening")

# Whom it is for, as the sentence says it: a pronoun, "me", or a name ("Dad", "Raj").
_WHOM = r"(me|him|her|us|them|[A-Z][\w'-]*)"
# ... or of whom it is put to: "She's put Maisie down to half a sachet of bute" (the vet said before).
_PUT_WHOM_TO = re.compile(rf"\b(?:put|puts|moved|dropped|brought|taken|took|bumped|upped)\s+{_WHOM}\s+"
                          rf"(?:up|down|back)\s+to\s+{_AMOUNT}\s+(?:of\s+)?{_MED}", _I)
_WHO = rf"(?<![\w'])((?i:my|our)\s+(?i:{_alt(lx.KIN)})|I|he|she|we|they|[A-Z][\w'-]*)"

# (pattern, its groups: whom, taken, stopped)
_SWITCHED = re.compile(rf"\b(?:switched|changed|moved|swapped|put)\s+{_WHOM}\s+(?:over\s+)?from\s+{_MED}\s+"
                       rf"(?:on)?to\s+{_DOSE}{_MED}", _I)
_SWITCHED_SELF = re.compile(rf"{_WHO}\s+(?:have\s+|has\s+|'ve\s+|'s\s+)?(?:switched|changed|moved)\s+"
                            rf"(?:over\s+)?from\s+{_MED}\s+(?:on)?to\s+{_DOSE}{_MED}", _I)
_PUT_ON = re.compile(rf"\b(?:has|had|have|put|puts|started|starts|keeps?|kept)\s+{_WHOM}\s+on\s+{_DOSE}{_MED}", _I)
_TAKES = re.compile(rf"{_WHO}(?:\s+(?:is|am|are)|'s|'m|'re)?\s+(?:now\s+|still\s+)?(?:takes|take|taking|on|"
                    rf"started\s+taking|started\s+on|uses|using|"
                    # ("Leo has 2.5ml of Piriton when he gets hives": a dose said)
                    rf"(?:has|have|gets|get)(?=\s+(?:\d|one|two|half)))\s+{_DOSE}{_MED}", _I)
# "she prescribed iron supplements" (for the speaker), "Dr. Lee prescribed Dad metformin".
_PRESCRIBED = re.compile(rf"\b(?:prescribed|prescribes|prescribing)\s+(?:{_WHOM}\s+)?{_DOSE}{_MED}", _I)
# Given by whoever looks after them: "we give her cetirizine, 2.5ml once a day" (of the child named before).
_GIVE = re.compile(rf"\b(?:give|gives|giving|gave)\s+{_WHOM}\s+(?:the\s+)?{_DOSE}{_MED}", _I)
_TOOK_OFF = re.compile(rf"\b(?:took|taken|takes|taking)\s+{_WHOM}\s+off\s+{_MED}", _I)
# A stop told by whoever prescribes ("My GP told me to stop ibuprofen completely"), and a switch
# said without what it was from ("I'm switching to paracetamol 500 mg"): the old value ended,
# the new one taken.
_TOLD_TO_STOP = re.compile(rf"\b(?:told|asked|advised|wants|instructed|said\s+for)\s+{_WHOM}\s+to\s+(?:stop|quit|"
                           rf"come\s+off|get\s+off)\s+(?:taking\s+)?{_MED}", _I)
_SWITCHING_TO = re.compile(rf"{_WHO}(?:\s+(?:is|am|are|have|has)|'s|'m|'re|'ve)?\s+(?:now\s+)?(?:switching|switched|"
                           rf"changing|changed|moving|moved)\s+(?:over\s+)?to\s+{_DOSE}{_MED}", _I)
_STOPPED = re.compile(rf"{_WHO}(?:\s+(?:is|am|are|has|have)|'s|'m|'re|'ve)?\s+(?:stopped\s+taking|stopped|finished|"
                      rf"came\s+off|come\s+off|off|no\s+longer\s+(?:on|taking|takes))\s+{_MED}", _I)

_SPEAKER = frozenset({"i", "me", "we", "us"})
_PRONOUN = frozenset({"he", "she", "him", "her", "they", "them"})


def medication(sent: _Sentence, reg: _Registry, recent: str | None,
               takers: dict[str, str] | None = None) -> list[_Parse]:
    """The "takes" and "stopped taking" facts a sentence states, for whom it says. `takers`: who
    takes each medication the episode said before (by its name in lower case), whom a dose
    changed by another is for ("Dr Hughes has put the felodipine up to 15mg", "he reduced it to
    7.5mg": the one medication taken)."""
    text = sent.text
    takers = takers or {}
    if len(takers) == 1 and (m := _IT_TO.search(text)):
        [(med, who)] = takers.items()
        return [_Parse(who, "name", f"{med} dose is", _amount(m.group(1)), True, False)]
    if not any(w in lx.MEDICATIONS for w in re.findall(r"[a-z]+", text.lower())):
        return []
    out: list[_Parse] = []

    def add(m: re.Match, predicate: str, med: str, word: str | None = None, dose: str | None = None) -> None:
        word = word or m.group(1)
        who = _patient(word, m.start(1), sent, reg, recent)
        med = one_medication(med)
        if who:
            # A thing of its own, which its facts name: entity("lisinopril") was null, and "who
            # takes lisinopril?" could not be asked of the graph.
            reg.add(med, {"thing": 9.0})
        kind = "pronoun" if word.lower() in _PRONOUN else "name"  # "He takes": "Raj takes"
        if who and all((p.subject, p.predicate, p.obj.lower()) != (who, predicate, med.lower()) for p in out):
            taken = _Parse(who, kind, predicate, med, False, False)
            if dose and predicate == "takes":
                # The dose is its own value, which a new dose ends; the sentence with it is the
                # dose's fact. Taking it stays true at every dose ("takes lisinopril 10 mg" stayed
                # current, with its old dose, when the dose went up).
                taken.text = f"{who} takes {med}"
            out.append(taken)
        if who and dose and predicate == "takes":
            out.append(_Parse(who, kind, f"{med.lower()} dose is", _amount(dose), True, False))
        if who and predicate == "stopped taking":  # no dose of it any more either
            out.append(_Parse(who, kind, f"{med.lower()} dose is", "none", True, False))

    def dose_of(m: re.Match, med_group: int) -> str | None:
        """The dose said just before or after the medication `m` names."""
        before = _DOSE_BEFORE.search(text, 0, m.start(med_group))
        after = _DOSE_AFTER.match(text[m.end(med_group):])
        return before.group(1) if before else after.group(1) if after else None

    for rx in (_SWITCHED, _SWITCHED_SELF):
        for m in rx.finditer(text):
            add(m, "stopped taking", m.group(2))
            add(m, "takes", m.group(3), dose=dose_of(m, 3))
    if out:
        return out
    for m in _DOSE_TO.finditer(text):
        # "Dr. Okafor bumped his insulin": not the doctor's; "Raj said his insulin went up": Raj's.
        whose, med, as_whom = (m.group(1), m.group(2), _WHOSE_AS_WHOM) if m.group(1) else \
            (m.group(3), m.group(4), _WHOSE_AS_WHO)
        said = as_whom.get(whose.lower(), whose[:-2])
        who = _whom(said, m.start(), sent, reg, recent)
        med = one_medication(med)
        if who:
            reg.add(med, {"thing": 9.0})
            kind = "pronoun" if said.lower() in _PRONOUN else "name"
            out.append(_Parse(who, kind, f"{med.lower()} dose is", _amount(m.group(5)), True, False))
    for m in _PUT_WHOM_TO.finditer(text):
        if (who := _patient(m.group(1), m.start(1), sent, reg, recent)) is not None:
            med = one_medication(m.group(3))
            reg.add(med, {"thing": 9.0})
            kind = "pronoun" if m.group(1).lower() in _PRONOUN else "name"
            out.append(_Parse(who, kind, f"{med.lower()} dose is", _amount(m.group(2)), True, False))
    for m in _GOES_TO.finditer(text):
        if (who := _whom(m.group(1), m.start(), sent, reg, recent)) is not None:
            med = one_medication(m.group(3))
            kind = "pronoun" if m.group(1).lower() in _PRONOUN else "name"
            out.append(_Parse(who, kind, f"{med.lower()} dose is", _amount(m.group(2)), True, False))
    for m in _THE_DOSE_TO.finditer(text):
        # whom the sentence names before it, not the one doing it ("Dr Shah called, she's lowering
        # the Apoquel to 8 mg": Dr Shah's patient, said before the sentence)
        named = _persons_before(sent, reg, m.start())
        med = one_medication(m.group(1))
        who = named[1] if len(named) > 1 else recent if recent not in named else takers.get(med.lower())
        if who is None and named and takers.get(med.lower()) is None and not sent.t.assistant:
            who = sent.t.speaker  # told to the speaker by the one named ("Dr Okafor said to drop the warfarin to 4mg")
        if who is not None:
            out.append(_Parse(who, "name", f"{med.lower()} dose is", _amount(m.group(2)), True, False))
    for m in _THE_DOSE_GOES.finditer(text):
        named = [n for n in _persons_before(sent, reg, m.start()) if not CLINICIAN.match(n)]
        med = one_medication(m.group(1))
        if (who := named[0] if named else takers.get(med.lower()) or recent) is not None:
            out.append(_Parse(who, "name", f"{med.lower()} dose is", _amount(m.group(2)), True, False))
    for m in _MED_ALONE.finditer(text):
        add(m, "takes", m.group(1), word=recent or sent.t.speaker, dose=m.group(2))
    if out:
        return out
    for rx, predicate in ((_PUT_ON, "takes"), (_GIVE, "takes"), (_TOOK_OFF, "stopped taking"),
                          (_STOPPED, "stopped taking"), (_TOLD_TO_STOP, "stopped taking"), (_SWITCHING_TO, "takes"),
                          (_TAKES, "takes")):
        for m in rx.finditer(text):
            add(m, predicate, m.group(2), dose=dose_of(m, 2) if predicate == "takes" else None)
    for m in _PRESCRIBED.finditer(text):  # for whom it says, else for the speaker ("she prescribed me ...")
        add(m, "takes", m.group(2), word=m.group(1) or "me", dose=dose_of(m, 2))
    return out


def names_a_dose(text: str) -> bool:
    """Whether `text` opens with a medication and its dose ("Felodipine, 5mg every morning."): a
    fact, however few its words."""
    return _MED_ALONE.match(text) is not None


def one_medication(word: str) -> str:
    """A medication as one name, whether said in the plural or not: "the statins" is statin."""
    return word[:-1] if word.lower().endswith("s") and word[:-1].lower() in lx.MEDICATIONS else word


def _amount(said: str) -> str:
    """A dose as one text for each way of saying it: "10mg" and "10 mg" are one value."""
    m = re.match(r"(\d[\d.]*)\s*([a-z]+)(\s.*)?$", said.strip().lower())
    return f"{m.group(1)} {m.group(2)}{m.group(3) or ''}" if m else said.strip().lower()


def _persons_before(sent: _Sentence, reg: _Registry, pos: int) -> list[str]:
    """The people the sentence names before `pos`, no speaker, in order."""
    return [e.name for mm in sent.mentions if mm.end <= pos
            and (e := reg.get(mm.key)) is not None and e.type == "person" and not e.speaker]


# A name that says its holder treats, not takes: whom "her" is never is ("we give her cetirizine" after "The
# consultant is Dr Nkechi Okafor" had made the consultant take it).
CLINICIAN = re.compile(r"(?:dr|dr\.|doctor|nurse|prof|professor)\s", re.I)


def _patient(word: str, at: int, sent: _Sentence, reg: _Registry, recent: str | None) -> str | None:
    """`_whom`, or an animal named: a thing to the registry ("Maisie is on 1 sachet of bute", of a mare);
    never a clinician said as a pronoun."""
    if (who := _whom(word, at, sent, reg, recent)) is not None:
        return None if word.lower() in _PRONOUN and CLINICIAN.match(who) else who
    named = reg.get(word) if word[:1].isupper() and word.lower() not in lx.MEDICATIONS else None
    return named.name if named is not None else None


def _whom(word: str, at: int, sent: _Sentence, reg: _Registry, recent: str | None) -> str | None:
    """The person `word` (at `at` in the sentence) stands for: the speaker, the person named
    before it in the sentence (but the one acting on "him") or else the one named last before
    the sentence (`recent`), or a person's name."""
    w = word.lower()
    if w in _SPEAKER:
        return sent.t.speaker
    if w in _PRONOUN:
        # (of the pronoun's sex: "Sophie took Otis for his check up, the vet's upped his Metacam" is Otis's)
        unlike = {"he": "f", "him": "f", "she": "m", "her": "m"}.get(w)
        named = [(mm, e) for mm in sent.mentions if mm.end <= at and (e := reg.get(mm.key)) is not None
                 and e.type == "person" and not e.speaker and kin_gender(e.name) != unlike]
        if w in ("him", "her", "them"):
            # "Dr. Lee has him on metformin", "Mum saw Dr Okafor, he put her on ...": not whoever has
            # him on it, named in its clause or as its "he"
            between = sent.text[named[-1][0].end:at] if named else ""
            if named and (not re.search(r"[,;.]", between) or re.search(r"\b(?:he|she|they)\b", between, re.I)):
                named = named[:-1]
            if not named and re.search(r"\b(?:she|he)\b", sent.text[:at], re.I):
                return None  # "she also put him on Apoquel": "she" is the one named last, "him" another
        return named[-1][1].name if named else recent
    mine = w.startswith(("my ", "our "))  # "My mother takes lisinopril", as "Mum takes" is
    ent = reg.get(f"{sent.t.speaker}'s {w.split(' ', 1)[1] if mine else w}" if mine or w in lx.KIN_AS_NAME
                  else word)
    return ent.name if ent is not None and ent.type == "person" else None
