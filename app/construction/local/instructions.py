"""Standing instructions to whoever helps: "Always book aisle seats for me", "Never schedule
meetings on Fridays", "Please don't call before 9am", and standing preferences told to it: "I
prefer window seats on long flights". Said once to an assistant, each must hold the next time
that errand is done, as a constraint does: a user of an agent says them more than any allergy."""
from __future__ import annotations

import re

from app.construction import lexicon as lx
from app.construction.local.fact_patterns import _I
from app.construction.local.foresight import situation_cues
from app.construction.local.entities import _Registry, kin_gender
from app.construction.local.sentence import _Sentence
from app.construction.local.voice import OBJECT_PRONOUN, _Voice, rewrite

# Verbs of errands only: "never give up", "don't worry", "always be kind" are no instruction.
ERRANDS = ("book|schedule|reschedule|call|ring|phone|email|e-mail|text|message|send|order|buy|"
           "reserve|pick|choose|use|put|add|invite|cc|copy|reply|forward|share|post|pay|charge|"
           r"spend|plan|recommend|suggest|wake|remind|contact|seat|serve|cook|get(?!\s+(?:me|us|him|her|them)\s+started)|"
           "bring|tell|"
           "include|accept|take|set|leave|offer|quote|discount|deploy|ship|release|merge|sign|approve|"
           r"give\s+out|give\s+away|hand\s+out|pass\s+on|disclose|reveal|visit|show|let\s+in|enter|"
           r"give\s+(?:me|us|him|her|them)|feed|pour|suggest\s+(?:me|us)|"  # ("never give me gels with caffeine")
           # what is done to a machine ("never reboot the dental clinic's server during opening hours"), and
           # what to raise when ("please always flag it when we book any lab taster day")
           r"reboot|restart|update|patch|upgrade|install|shut\s+down|turn\s+off|switch\s+off|unplug|wipe|"
           r"flag|mention|warn|check|ask")
_HOW_ALT = r"always|never|don't|dont|do not"
# At a clause's start: the sentence's, after a colon ("Two things: always book ..."), or after
# another instruction (", and never schedule ..."), each up to the next one or the sentence's end.
_INSTRUCTION = re.compile(
    # ("From now on always send the owner a photo after every walk")
    # ("Which reminds me - please never book or suggest anything for Isla on a Sunday morning": after a dash)
    r"(?:^|(?<=[:;,])\s*|(?<=\band)\s+|(?<=\s[-–—])\s+)(?:(?:please|pls|also|and|oh|so|just|btw|from\s+now\s+on|going\s+forward|"
    r"in\s+(?:the\s+)?future|remember)[,]?\s+)*"
    rf"(?P<how>{_HOW_ALT})\s+(?:ever\s+)?(?:(?:please|again)\s+)?(?P<v>{ERRANDS})\b"
    # (a dot inside a word is no sentence's end: "always cc me (dan.mercer@fastmail.com)")
    rf"(?P<rest>(?:[^.;!?]|\.(?=\w)){{0,140}}?)(?=\s*(?:\.(?!\w)|[;!?]|$|,?\s*(?:and\s+)?(?:{_HOW_ALT})\s))", _I)
_HOW = {"always": "to always", "never": "never to", "don't": "not to", "dont": "not to", "do not": "not to"}


def instructions(sent: _Sentence, recent: str | None = None,
                 reg: _Registry | None = None) -> list[tuple[str, list[str], list[str]]]:
    """(text, situation keys, trigger words) of each instruction `sent` gives. `recent`: the
    person named last before it, whom "her" or "him" in it stands for ("never call her")."""
    # (an errand's words after its verb: "don't ask" alone, "always check!" say no errand)
    told = [_one(sent, m, recent, reg) for m in _INSTRUCTION.finditer(sent.text.strip()) if m.group("rest").strip()]
    told += contact_by(sent, recent, reg) + in_language(sent)
    if not told and (m := _DO_THIS.search(sent.text)) is not None:
        told.append(_done_always(sent, m))
    if not told:
        told += rules(sent, reg, recent) or always_with(sent, recent, reg)
    for m in _WISH.finditer(sent.text):  # "Marta said never call her": a wish of hers, reported
        who, verb = m.group("who"), m.group("v").lower()
        keys, words = situation_cues(verb)
        told.append((f"{who} asked not to be {_CONTACTED[verb]}", keys, words))
    return told


# A person's wish about being reached, reported: "Marta said never call her", "Jonas says don't
# phone him, email only".
_CONTACTED = {"call": "called", "phone": "phoned", "ring": "rung", "text": "texted", "email": "emailed",
              "message": "messaged", "contact": "contacted"}
_WISH = re.compile(rf"(?P<who>[A-Z][\w'-]+)\s+(?:said|says|asked|wants|told\s+(?:me|us))\s+(?:us\s+|me\s+)?"
                   rf"(?:to\s+)?(?:never|don't|do\s+not|not\s+to)\s+(?:ever\s+)?(?P<v>{'|'.join(_CONTACTED)})"
                   r"\s+(?:her|him)\b")



def _one(sent: _Sentence, m: re.Match, recent: str | None,
         reg: _Registry | None) -> tuple[str, list[str], list[str]]:
    verb = m.group("v")
    # (the verb's own object too: "never give me gels" is "never to give Aoife gels")
    voice = _Voice(sent.t.speaker, sent.t.other)
    what = rewrite(f"{verb[:1].lower()}{verb[1:]}{m.group('rest')}", voice).rstrip(" ,")
    # "her" is whom the sentence named before it ("Mrs Patel prefers email, never call her"), else
    # whom the turns before named last
    named = sent.named_before(reg, sent.s1_pos(m.start()), ("person",)) if reg is not None else []
    whom = named[-1].name if named else recent
    if whom and whom != sent.t.speaker:
        what = OBJECT_PRONOUN.sub(whom, what)
    keys, words = situation_cues(f"{m.group('v')}{m.group('rest')}")  # as said: "me" is no word of the errand
    if (label := _LABELLED.match(sent.text, 0, m.start())) is not None:
        # ("a rule for invoices from now on: always cc me (dan.mercer@fastmail.com)": found by invoices too)
        label_keys, label_words = situation_cues(label.group("label"))
        keys = list(dict.fromkeys([*keys, *label_keys]))
        words = list(dict.fromkeys([*(w for w in label_words if w not in ("rule", "rules", "now")), *words]))
    told = f"{sent.t.speaker} asked {_HOW[' '.join(m.group('how').lower().split())]} {what}"
    if (when := _WHEN_YOU.search(sent.text, 0, m.start())) is not None:
        # ("when you remind us of anything, always put it here in the group chat": found by reminding, and said so)
        told = f"{told}, when {rewrite(when.group('clause'), voice)}"
        when_keys, when_words = situation_cues(when.group("clause"))
        keys = list(dict.fromkeys([*when_keys, *keys]))
        words = list(dict.fromkeys([*when_words[:3], *words]))
    return told, keys, words


# An instruction said after what it is: "One thing I want you to ALWAYS do though: whenever you help with a menu,
# a specials board or an allergen sheet, label sesame" (its errand no verb of ERRANDS, after a colon: it had been a
# "said" fact, no constraint).
_DO_THIS = re.compile(r"\b(?P<how>always|never)\s+do(?:\s+(?:though|this|that|please|for\s+(?:me|us)))*\s*:\s*"
                      r"(?:(?:when|whenever|if)\s+(?P<clause>you\s+[^.;:!?]{3,90}),\s+)?"
                      r"(?P<body>[a-z][\w'-]*\s[^.;!?]{2,120})", _I)


def _done_always(sent: _Sentence, m: re.Match) -> tuple[str, list[str], list[str]]:
    voice = _Voice(sent.t.speaker, sent.t.other)
    told = f"{sent.t.speaker} asked {_HOW[m.group('how').lower()]} {rewrite(m.group('body'), voice).rstrip(' ,')}"
    keys, words = situation_cues(m.group("body"))
    if m.group("clause"):
        told = f"{told}, when {rewrite(m.group('clause'), voice)}"
        when_keys, when_words = situation_cues(m.group("clause"))
        keys = list(dict.fromkeys([*keys, *when_keys]))
        words = list(dict.fromkeys([*words, *when_words]))
    return told, keys, words


# What the instructions after a colon are for: "a rule for invoices from now on: always cc me ...".
_LABELLED = re.compile(r"^(?P<label>[^:.!?]{3,60}):\s*")
# The occasion an instruction is for, said before it: "when you remind us of anything, always put it here".
_WHEN_YOU = re.compile(r"\b(?:when|whenever|if)\s+(?P<clause>you\s+[a-z]+[^,.;:!?-]{0,50}?)\s*[,-]\s*$", _I)


# "I prefer X", "we usually prefer X": standing. "I'd prefer", "would prefer" ask for this once.
_PREFER = re.compile(
    r"(?<![\w'])(?:I|we)\s+(?:(?:usually|always|generally|really|strongly|much|definitely)\s+)?"
    r"prefer\s+(?P<x>[^.;!?]{3,100})", _I)
# ... and what is wanted of everyone in general: "in general we want everything from the agent in writing, not just
# promises on the phone" (a "said" fact, no constraint).
_WANT_IN_GENERAL = re.compile(
    r"\b(?:in\s+general|as\s+a\s+(?:general\s+)?rule|generally|from\s+now\s+on|going\s+forward)\s*,?\s+"
    r"(?:I|we)\s+(?:always\s+)?(?:want|need|expect|like)\s+(?P<x>(?!to\s+(?:go|get|see|say|know|ask|have)\b)[^.;!?]{3,100})",
    _I)
_THIS_TIME = re.compile(r"\b(?:this\s+time|today|tonight|tomorrow|for\s+now)\b", _I)


def preferences(sent: _Sentence) -> list[tuple[str, list[str], list[str]]]:
    """(text, situation keys, trigger words) of each standing preference `sent` tells."""
    out = []
    for m in _PREFER.finditer(sent.text):
        x = m.group("x").rstrip(" ,")
        if _THIS_TIME.search(x):
            continue
        text = f"{sent.t.speaker} prefers {rewrite(x, _Voice(sent.t.speaker, sent.t.other))}"
        out.append((text, *situation_cues(x)))
    for m in _WANT_IN_GENERAL.finditer(sent.text):
        x = m.group("x").rstrip(" ,")
        out.append((f"{sent.t.speaker} wants {rewrite(x, _Voice(sent.t.speaker, sent.t.other))}", *situation_cues(x)))
    return out


# How someone is to be reached: "text don't call", "email only", "only by text", "no phone calls".
_MODES = {"text": "by text", "texts": "by text", "sms": "by text", "email": "by email", "emails": "by email",
          "e-mail": "by email", "whatsapp": "on WhatsApp", "message": "by message", "messages": "by message",
          "phone": "by phone", "call": "by phone", "calls": "by phone", "ring": "by phone", "post": "by post", "letter": "by post"}
_MODE = r"(?P<mode>texts?|sms|e-?mails?|whatsapp|messages?|phone|calls?|post|letter)"
_CHANNELS = r"(?-i:Slack|Teams|Signal|Telegram|Discord|WeChat|Zoom)"
_CONTACT_BY = re.compile(
    rf"\b{_MODE}(?:\s+(?:her|him|them|me))?\s*,?\s*(?:(?P<not>don't|do\s+not|never|not)\s+"
    r"(?P<no>call|phone|ring|email|text|visit)\b|"
    r"only\b(?!\s+(?:if|when|for|to)\b))|"
    rf"\bonly\s+(?:by|via|on|over)\s+{_MODE.replace('mode', 'mode2')}\b|"
    rf"\bprefers?\s+(?:to\s+be\s+(?:contacted|reached)\s+(?:by|on|via|over)\s+)?{_MODE.replace('mode', 'mode4')}\b"
    r"(?:\s*,?\s*(?:don't|do\s+not|never|not)\s+(?P<no2>call|phone|ring|email|text|visit)\b)?|"
    r"\bno\s+(?P<noemail>e-?mails?|emailing)\b(?!\s+(?:yet|back|from|today|so\s+far)\b)|"
    # "all communication goes through their Slack workspace": that way only
    r"\b(?:all\s+)?(?:communication|communications|messages|everything)\s+(?:goes|go|should\s+go|must\s+go|to\s+go|"
    r"has\s+to\s+go|going)\s+(?:through|via|over|on)\s+(?:their|our|the|his|her|my)?\s*(?P<chan>[A-Z][\w-]+)"
    r"(?![\w'’-])|"  # (not someone's: "everything goes on Tom's card" is how to pay)
    r"\bno\s+(?P<nocalls>(?:phone\s+)?calls|calling|phoning)\b(?!\s+(?:yet|back|from|today|so\s+far)\b)"
    r"(?:\s+(?P<when>(?:during|before|after|on|at|in)\s+[^,.;!?]{2,30}))?|"
    # The way asked for from now on: "Next time please call me instead", "From now on just text me".
    r"(?:\b(?:next\s+time|in\s+(?:the\s+)?future|from\s+now\s+on|going\s+forward)\s*,?\s+(?:please\s+)?(?:just\s+)?"
    r"(?P<mode5>call|ring|phone|text|e-?mail|message|whatsapp)\s+me\b|"
    r"\b(?P<mode6>call|ring|phone|text|e-?mail|message|whatsapp)\s+me\s+instead\b|"
    # "Please contact me on Slack, not by email", "Martin prefers Slack": a channel of a firm's
    r"\b(?:contact|reach|message|ping)\s+(?:me|her|him|them|us)\s+(?:on|via|over|through)\s+"
    rf"(?P<chan2>{_CHANNELS})\b|"
    rf"\bprefers?\s+(?:to\s+be\s+(?:contacted|reached)\s+(?:on|via|over)\s+)?(?P<chan3>{_CHANNELS})\b)"
    r"(?:\s*,?\s*(?:not|rather\s+than|instead\s+of)\s+(?:by\s+|via\s+|over\s+)?"
    r"(?P<nomode>e-?mails?|phone|calls?|texts?))?", _I)
# The way to reach them instead, said after "no calls": "No calls during work hours, email her".
_INSTEAD_WAY = re.compile(rf"\b{_MODE.replace('mode', 'mode3')}\s+(?:her|him|them|me)\b", _I)
_NO_WAY = {"call": "by phone", "phone": "by phone", "ring": "by phone", "email": "by email", "text": "by text",
           "visit": "in person"}


# The language to be written or spoken to in: "please write to me in Portuguese when you can",
# "answer me in Spanish", "I'd rather you speak German with me". (It was the fact "Ana said
# please write to Ana in Portuguese ...", which "In which language should we answer Ana?" missed.)
_IN_LANGUAGE = re.compile(
    r"\b(?:write|speak|talk|answer|reply|respond|email|text|message)\s+(?:to\s+|with\s+)?(?:me|us)\s+"
    r"(?:only\s+)?in\s+(?P<lang>[A-Z][a-z]+)\b"
    r"|\b(?:write|speak|talk|answer|reply|respond)\s+in\s+(?P<lang2>[A-Z][a-z]+)\s+(?:to|with)\s+(?:me|us)\b")


def in_language(sent: _Sentence) -> list[tuple[str, list[str], list[str]]]:
    """The language the speaker asks to be written to in, as a standing wish of theirs."""
    for m in _IN_LANGUAGE.finditer(sent.text):
        lang = m.group("lang") or m.group("lang2")
        if lang.lower() in lx.DEMONYMS:
            return [(f"{sent.t.speaker} prefers to be written to in {lang}", ["contact"],
                     ["write", "reply", "answer", "message", "email", "language", lang.lower()])]
    return []


# Where files are kept or sent through: a sentence naming one is about files, not about how to
# reach someone ("no email, no dropbox, no usb sticks. only the M: drive").
_STORED_ON = re.compile(r"\b(?:dropbox|usb|wetransfer|google\s+drive|onedrive|one\s+drive|sharepoint|memory\s+sticks?|"
                        r"hard\s+drives?|the\s+cloud|[A-Z]:\s+drive)\b", _I)


def contact_by(sent: _Sentence, recent: str | None,
               reg: _Registry | None) -> list[tuple[str, list[str], list[str]]]:
    """"Mrs Patel is hard of hearing, text don't call": how she is to be reached, hers; said of
    no one named ("No phone calls please, email only"), the speaker's own wish."""
    said = list(_CONTACT_BY.finditer(sent.text))
    if not said or _STORED_ON.search(sent.text):
        return []  # ("no email, no dropbox, no usb sticks": how files may travel, not how to reach anyone)
    # (an organisation's way too: "Brightwave asked that all communication goes through Slack")
    named = (sent.named_before(reg, sent.s1_pos(said[0].start()), ("person", "organization"))
             if reg is not None else [])
    if named:
        who = named[-1].name
    elif recent and recent != sent.t.speaker and (_THIRD.search(sent.text) or (
            not _FIRST.search(sent.text) and _named_in_turn(recent, sent))):
        who = recent  # "Marta said never call her. Email only.": hers (not "Remember, no calls."
        # after the assistant named its supervisor: the customer's own)
    else:
        who = sent.t.speaker
    ways, nots = [], []
    for m in said:
        if m.group("noemail"):
            nots.append("by email")
            continue
        if m.group("nomode"):  # "on Slack, not by email"
            nots.append(_NO_WAY.get(m.group("nomode").lower().rstrip("s").replace("-", ""), "by phone"))
        if m.group("chan"):
            ways.append(f"on {m.group('chan')} only")
            continue
        if m.group("chan2") or m.group("chan3"):
            ways.append(f"on {m.group('chan2') or m.group('chan3')}")
            continue
        if m.group("nocalls"):
            when = " ".join(m.group("when").split()) if m.group("when") else ""
            nots.append(f"by phone {when}".strip())
            way = _INSTEAD_WAY.search(sent.text, m.end())
            if way and way.group("mode3").lower() not in ("call", "calls"):
                ways.append(_MODES[way.group("mode3").lower()])
            continue
        way = _MODES[(m.group("mode") or m.group("mode2") or m.group("mode4") or m.group("mode5")
                      or m.group("mode6")).lower()]
        if m.group("not"):
            ways.append(way)
            nots.append(_NO_WAY[m.group("no").lower()])
        else:  # "email only"; "prefers WhatsApp": that way first ("prefers WhatsApp only": only)
            only = not (m.group("mode4") or m.group("mode5") or m.group("mode6")) or re.match(r"\s+only\b", sent.text[m.end():], _I)
            ways.append(f"{way} only" if only else way)
            if m.group("no2"):  # "She prefers email, don't call her"
                nots.append(_NO_WAY[m.group("no2").lower()])
    ways, nots = list(dict.fromkeys(ways)), [n for n in dict.fromkeys(nots) if n not in ways]
    # Begun by whom it is about, as a constraint's text is: their entity's, ended by what they say.
    text = (f"{who} prefers to be contacted {' and '.join(ways) or 'another way'}"
            + (f", not {' or '.join(nots)}" if nots else ""))
    return [(text, ["contact"], ["call", "phone", "text", "email", "contact", "message", "reach", "ring"])]


def _named_in_turn(who: str, sent: _Sentence) -> bool:
    content = sent.t.turn.content if isinstance(sent.t.turn.content, str) else ""
    return any(re.search(rf"\b{re.escape(w)}\b", content) for w in who.split()[:1])


_THIRD = re.compile(r"\b(?:she|he|her|him|they|them)\b", _I)
_FIRST = re.compile(r"\b(?:I|me|my|we|us|our)\b", _I)

# A standing rule said as "no <things> <where or when>": "No pets at Maple Court per the head
# lease", "the Flat 4 tenant works nights, no visits before noon", "no viewings on Sundays".
_NO_RULE = re.compile(
    # (after a dash too: "He's strict - absolutely no flash inside the church")
    r"(?:^|(?<=[:;,])\s*|(?<=\s[-–—])\s*|(?<=\band)\s+|(?<=\bso)\s+)(?:(?:and|also|so|but|just|please|strictly|absolutely)\s+)?"
    # ("No dusty work at the house while he's home", "no sanding, demolition or plastering at weekends")
    r"no\s+(?P<x>(?:[a-z][\w-]*\s+){0,2}?(?:[a-z][\w-]*(?:s|ing)|work|noise|dust|music|alcohol|parking|access|photography|flash|"
    r"food|drink|meat|dairy|gluten|smoke))\b"
    r"(?=(?:\s+(?!(?:and|but|or|so)\b)[\w-]+|\s*,\s+[a-z][\w-]*|\s+or\s+[a-z][\w-]*){0,4}?"
    r"\s+(?:at|in|on|before|after|until|till|inside|during|without|"
    r"per|unless|except|past|between|anywhere|under|over|of)\b|\s+(?:are|is)\s+(?:ever\s+)?(?:allowed|permitted)\b|"
    r"\s*,?\s*(?:please|allowed|permitted|at\s+all\s+allowed|ever|inside|indoors|outside|anywhere)\b|"
    # ... or the hours it holds for: "So no visits 2-3pm please" (his nap)
    r"\s+\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\s*(?:-|–|to)\s*\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)\b)", _I)
# ... or for a while, or over a limit: "no butterfly for 3 weeks at least" (the physio's), "no fly sets longer than
# 100m for now" (each a "said" fact).
_NO_FOR_A_WHILE = re.compile(
    r"(?:^|(?<=[:;,])\s*|(?<=\band)\s+|(?<=\bbut)\s+)(?:(?:and|also|so|but|just|still|strictly|absolutely)\s+)?"
    r"no\s+(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:for\s+(?:at\s+least\s+|the\s+next\s+)?"
    r"(?:\d+|a|an|one|two|three|four|five|six)\s+(?:days?|weeks?|months?)\b|(?:longer|more|further|heavier)\s+than\s+\d)", _I)
# ... or said to someone, shouted: "Tom remember your back. you're NOT lifting anything heavy on the day, the physio
# was very clear" (a "said" fact).
_YOU_ARE_NOT = re.compile(r"(?:^|(?<=[:;,])\s*|(?<=\band)\s+|(?<=\bso)\s+)(?i:you're|you\s+are)\s+"
                          r"(?:NOT|NEVER|(?i:absolutely|definitely)\s+not)\s+(?P<x>[a-z]+ing\b)")
# Words before a colon that only ask for the rule after it: "Can we put a rule in:", "while I think of it:".
_ASKS_FOR_A_RULE = re.compile(r"(?:^|[.!?]\s+)(?:(?:morning|hi|hey|ok|okay|and|also|so|oh)[\w\s,!]*?\s+)?"
                              r"(?:(?:can|could|shall|should)\s+(?:we|I|you)|let'?s|please)\s+(?:put|add|make|set|have)\s+"
                              r"(?:a|one|another|this)\s+(?:new\s+)?rule(?:\s+(?:in|down|here|too))?\s*:\s*$|"
                              r"\bwhile\s+I\s+think\s+of\s+it\s*:\s*$", _I)
# A place said to be without something: "Harbour Road flats are no pets", "the house is a no-smoking house".
_IS_NO = re.compile(r"(?<!\bthere\s)\b(?:is|are)\s+(?:strictly\s+|a\s+|an\s+)?no[-\s](?P<x>smoking|pets|dogs|cats|shoes|"
                    r"alcohol|parking|children|kids|vaping|phones)\b", _I)
_NOT_RULES = frozenset("""worries problems issues plans complaints regrets thanks news luck ideas doubts signs
changes updates things nothing days times clues words strings others ones hard feelings questions answers
replies responses takers kidding messing joking exceptions excuses bites offers bids enquiries inquiries
buyers""".split())  # ("No bites on the car at £9,500 so I've dropped it": no rule)


# ... or said as a ban or an exception: "Smoking is banned inside 41 Mill Street", "dogs are fine
# at Harbour View but no cats".
# ... or allowed only then ("Bonfires are only allowed on Sundays before 10am"), or nothing done
# before someone agrees ("nothing gets announced publicly before Brightmoss signs off").
_BANNED = re.compile(r"\b(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:is|are)\s+(?:strictly\s+)?(?:banned|forbidden|"
                     r"prohibited|not\s+allowed|not\s+permitted|only\s+allowed|only\s+permitted)\b"
                     r"|\bnothing\s+(?:gets|is|can\s+be|should\s+be|goes)\s+(?P<y>[a-z]+ed)\b(?=[^.;!?]{0,40}?\b"
                     r"(?:before|until|till|without|unless)\b)", _I)
# ... or said of whom or what must be kept from somewhere: "Biscuit must be kept away from the site",
# "the kids mustn't go near the scaffolding", "Biscuit still never goes to Elm Row".
_KEPT_FROM = re.compile(
    r"(?:^|(?<=[:;,])\s*|(?<=\bso)\s+)(?P<x>(?-i:[A-Z])[\w'-]*|(?:the|our|my)\s+[a-z][\w-]*)\s+"
    # ("Biscuit needs to be kept well away from the site once work starts")
    r"(?:(?:still|always)\s+)?(?:(?:must|needs\s+to|has\s+to|have\s+to|should)\s+(?:always\s+)?be\s+kept\s+"
    r"(?:well\s+|right\s+|safely\s+)?(?:away\s+from|out\s+of|off)|"
    r"(?:must\s+(?:never|not)|mustn't|should\s+never|(?:is|are)\s+not\s+allowed\s+to)\s+"
    r"(?:go|come|be)\s+(?:near|on|in|into|to|at)|never\s+goes\s+(?:to|near|on|in|into)|"
    # ("Luna must never be walked with other dogs")
    r"(?:must|should)\s+never\s+be\s+[a-z]+ed\s+(?:with|near|alongside|off|by))\b", _I)
# ... or of what must stay where it is kept: "participant data must never leave the university drive"
# (found by sending, sharing or copying it anywhere).
_NEVER_LEAVE = re.compile(
    r"(?:^|(?<=[:;,])\s*|(?<=\bso)\s+)(?P<x>(?:(?:the|our|my|all|any|their)\s+)?"
    r"(?:(?!(?:must|should|can|may|never)\b)[a-z][\w-]*\s+){0,2}(?!(?:must|should|can|may|never)\b)[a-z][\w-]*)\s+"
    r"(?:(?:must|should|can|may)\s*(?:never|not|n't)\s+(?:ever\s+)?leave|(?:never|must\s+not)\s+leaves?|"
    r"(?:has|have|needs?)\s+to\s+stay\s+on)\s+(?:the\s+)?(?P<where>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)", _I)
_SENDING = ["send", "sending", "share", "sharing", "email", "transfer", "upload", "copy", "files", "attach",
            "forward", "collaborator"]
_FILES = frozenset("data files file recordings records documents photos footage notes results samples model "
                   "spreadsheet spreadsheets information details database".split())
# ... or a ban told as someone's clear word: "she was very clear, no grapefruit or grapefruit juice at
# all because of the simvastatin" (not "no traffic at all", a day's news).
_NO_AT_ALL = re.compile(
    r"\b(?:clear|strict|strictly|firm|insist(?:s|ed)?|orders|told\s+(?:me|us|him|her|them))\b[^.;!?]{0,25}?"
    r"(?:[:;,]\s*|\bsaid\s+|\s)no\s+(?!(?:problem|idea|doubt|way|chance|rush|trouble|bother|worries|pressure)\b)"
    r"(?P<x>[a-z][\w-]*(?:\s+(?:or|and|nor)\s+(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)?)\s+"
    r"(?:at\s+all|whatsoever|ever|of\s+any\s+kind)\b", _I)
_BUT_NO = re.compile(r"\b(?:fine|allowed|ok|okay|welcome|permitted)\b[^.;!?]{0,40}?\bbut\s+no\s+"
                     r"(?P<x>[a-z][\w-]*s)\b", _I)


# ... or said of nobody: "one rule for everyone: nobody lifts anything over 25 kg alone"; or of what a
# job takes: "piano means we need a third person and the piano trolley on that job"; or of how a thing
# is to be kept: "on moving day the cat has to be shut in the bathroom".
_NOBODY = re.compile(r"\b(?:nobody|no\s+one|no-one)\s+(?:ever\s+)?(?P<x>(?!(?:is|was|knows|cares|wants|likes|"
                     r"thinks|says|said|believes|expects|remembers|told|asked|came|showed|"
                     # (what people do, not may: "beef cheek is off the menu, nobody orders it")
                     r"orders|buys|eats|drinks|reads|watches|notices|listens|answers|replies|understands|minds|"
                     # ("please nobody ring me before 7am")
                     r"wins|loves|enjoys|bothers|complains|checks|misses)\b)(?:[a-z]+s|ring|call|phone|text|message))\b", _I)
_MEANS_NEED = re.compile(r"\b(?P<x>[a-z][\w-]*)\s+means\s+(?:we|you|they)(?:'ll)?\s+(?:need|have\s+to|must)\b", _I)
# ... and of one named just before as "it" ("she's got a spaniel called Biscuit, it has to be kept
# inside while we're working": the sentence says whose).
_HAS_TO_BE = re.compile(
    r"(?:^|(?<=[:;,])\s*)(?:on\s+(?:[a-z]+\s+){0,2}day\s*,?\s+)?(?:(?:the|our|my|his|her|their)\s+(?P<x>[a-z][\w-]*)|"
    r"(?<=[:;,]\s)(?P<it>it))\s+"
    r"(?:has\s+to|have\s+to|must|needs\s+to)\s+(?:always\s+)?be\s+(?:shut|kept|locked|left|put|closed)\s+"
    r"(?:in|into|out|inside|away|off|upstairs|downstairs)\b", _I)


# Said short: what someone is not to be given ("No alfalfa in anything - feed, chaff, treats, nothing", "And no
# cranberry juice or grapefruit", after warfarin), a limit a day ("max two treats a day"), a rule named ("Screen
# time rule: Finn gets no screens at all"), or an imperative between people ("one thing with them, never park on
# their drive", "she asked that we always ring before arriving"): each had been a "said" fact.
# ("pharmacist said absolutely no grapefruit juice with it", after simvastatin)
_NO_FOOD = re.compile(r"(?:^|(?<=[:;,])\s*|\b(?:said|says|told\s+(?:me|us|him|her))\s+)"
                      r"(?:(?:and|also|so|but|just|please|strictly|absolutely|remember)\s+)*no\s+(?:more\s+)?"
                      r"(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\b", _I)
_MAX_A_DAY = re.compile(r"(?:^|(?<=[:;,])\s*)(?:(?:and|also|so|but|just|please|strictly)\s+)*(?:(?-i:[A-Z])[\w'-]*\s+)?"
                        r"(?:max(?:imum)?|no\s+more\s+"
                        r"than|at\s+most)\s+(?:of\s+)?(?:\d+|one|two|three|four|five|six|ten|twenty|thirty)\s+"
                        r"(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:a|per|each)\s+(?:day|week|night|session)\b", _I)
# ("Rule 1: Dan never runs two days in a row while the shin heals": numbered, no label)
_NAMED_RULE = re.compile(r"^(?:(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})\s+)?rules?"
                         r"(?:\s+(?:\d{1,2}|#\d{1,2}|no\.?\s*\d{1,2}|one|two|three|four|five))?\s*[:–-]\s*\S", _I)
# ... or said with who sets it: "one rule from me while we're setting up: any spend over £100 needs two
# committee signatures" (the rule is what follows the colon).
_RULE_FROM_ME = re.compile(r"^(?:(?:one|a|another|new|my|our|the)\s+)?(?:more\s+)?(?:(?:house|golden|new|simple|strict|big)\s+)?"
                           r"rule\s+(?:from|for)\s+[^:.!?]{1,50}?:\s*(?P<rule>\S.*)$", _I)
# ... or a label of rules inside the sentence, what follows it forbidding, limiting or bidding: "Pip can you
# remember our house rules please: dogs welcome but never upstairs ...", "Grace also told me the hospice rule for
# feed stations: nothing containing nuts, at all", "that's a rule for everyone, no bleach and no wipes".
_RULE_LABEL = re.compile(r"^(?P<lead>[^:.!?]*?)(?:\b(?:that|it|this)(?:'s|\s+is)\s+)?"
                         r"(?P<label>(?:\b(?:the|our|my|his|her|their|a|one\s+more|(?-i:[A-Z])[\w-]*'s)\s+)?"
                         # ("Can we put a rule in: no deliveries before 8am. Ever.")
                         r"(?:[\w'-]+\s+){0,2}?\brules?\b(?:\s+(?:for|from|of|about|on)\s+[^:.!?,]{1,40}?)?)(?:\s+(?:in|down|here))?"
                         r"(?:\s+please)?(?:\s*[:–—]\s*|\s*,\s*(?=(?:no|never|only|always|don'?t|do\s+not)\b))"
                         r"(?P<rule>\S.*)$", _I)
_RULE_BODY = re.compile(r"\b(?:never|no|not|nothing|don'?t|do\s+not|only|max|maximum|at\s+most|always|must|mustn'?t)\b", _I)
# ... or what one never does, said so: "(yes one big one:) I don't take on medical translations. Ever."
_NOT_EVER = re.compile(r"^(?:[^:.!?]{1,30}:\s*)?(?P<rule>(?:(?:I|we)\s+(?:don'?t|do\s+not|won'?t|will\s+not)|(?-i:[A-Z])[\w'-]*\s+(?:doesn'?t|does\s+not|won'?t))"
                       r"\s+(?P<x>[a-z]+)\b[^.!?]*?[,.!;-]*\s+ever\b[.!]*)$", _I)
_NEVER_DO = re.compile(r"(?:^|(?<=[:;,])\s*|\b(?:asked|told\s+(?:us|me))\s+(?:that\s+)?(?:we|you|us\s+to)\s+)"
                       r"(?:(?:and|so|but|please|just|from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)[,]?\s+)*"
                       r"(?:never|always)\s+"
                       r"(?P<x>(?!(?:mind|again|ever|been|seen|the|a|an|too|so|very|really|happy|glad|good|nice|sure|fun|"
                       r"late|early|busy|before|after|on|in|at|here|there|"
                       # (advice, no rule: "never give up on your dreams")
                       r"quit|give|stop|forget|let|doubt|lose|underestimate|change|believe|trust|look|"
                       # (one's slips, no rule: "sorry no, 22047751. always mix up the last two")
                       r"mix|muddle|confuse|mess|mistype|misread|misspell)\b)[a-z]+)\b"
                       r"(?=\s+(?:[a-z]+\s+){0,4}?(?:on|in|at|before|after|the|their|his|her|our|your|any|anything|"
                       r"first|ahead|without)\b)", _I)
# ... or a limit of how much or how long ("so shorter loops for him please, no more than 40 minutes", "And no more
# than one glass of wine with dinner", "Half day max, my knees"): not a count told of what was ("no more than 10
# came").
_UNITS = (r"minutes|mins|hours|hrs|hour|km|miles|glass|glasses|drinks?|units|cups|coffees|treats|portions|pieces|"
          r"biscuits|days|nights|people|guests|kids|dogs|visitors|steps|laps|sessions|slices|squares")
_LIMIT = re.compile(r"(?:^|(?<=[:;,])\s*)(?:(?:and|also|so|but|just|please|strictly)\s+)*"
                    r"(?:no\s+more\s+than|no\s+longer\s+than|not\s+more\s+than|at\s+most)\s+"
                    r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty)\s+"
                    rf"(?:small\s+|large\s+)?(?P<x>(?:{_UNITS}))\b"
                    r"|(?:^|(?<=[:;,])\s*)(?P<y>half\s+(?:a\s+)?day|(?:\d+|one|two|three|four|five)\s+"
                    rf"(?:{_UNITS}|day|hour))\s+max(?:imum)?\b", _I)
_TIME_LIMIT = re.compile(r"(?:minutes|mins|hours|hrs|hour|day)$|half", _I)
_TOLD_OF_WHAT_WAS = re.compile(r"\b(?:was|were|came|had|did|went|got|took)\b", _I)
# ... or said of someone as what they never are, or get none of: "Biscuit, Pat Henderson's beagle, is NEVER off the
# lead", "Luna gets no treats at all" (each a "said" fact, found by nothing asked about walks or treats).
_NEVER_IS = re.compile(
    r"(?:^|(?<=[:;,])\s*|(?<=\bso)\s+)(?P<x>(?-i:[A-Z])[\w'-]*)(?:\s*,\s*[^,.;!?]{1,40}?,)?\s+(?:is|are)\s+"
    r"(?:strictly\s+|absolutely\s+)?never\s+(?:allowed\s+|to\s+be\s+|let\s+|left\s+|taken\s+|walked\s+)?"
    r"(?:off|out|alone|near|unsupervised|loose|free|unattended)\b", _I)
_GETS_NONE = re.compile(
    r"(?:^|(?<=[:;,])\s*|(?<=\band)\s+|(?<=\bso)\s+)(?P<who>(?-i:[A-Z])[\w'-]*)\s+(?:gets|has|is\s+allowed|can\s+have|"
    r"may\s+have|is\s+to\s+have)\s+no\s+(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*(?P<all>at\s+all|whatsoever|ever)?", _I)
_TREATS = frozenset("treats treat snacks sweets chocolate screens screen sugar caffeine dairy gluten alcohol".split())
_GIVEN = lx.FOODS | lx.MEDICINES | lx.MEDICATIONS
_SHORT_RULES = (_NO_FOOD, _MAX_A_DAY, _NAMED_RULE, _NEVER_DO, _RULE_FROM_ME, _LIMIT, _GETS_NONE, _RULE_LABEL, _NOT_EVER)
_SHORT_RULE_FILLER = frozenset("max maximum day days week weeks minutes minute hours hour nothing anything "
                               "nursery school work home".split())


def _short_rules(sent: _Sentence) -> list[re.Match]:
    text = sent.text
    return [*(m for m in _NO_FOOD.finditer(text) if set(m.group("x").lower().split()) & _GIVEN),
            *_MAX_A_DAY.finditer(text), *_NEVER_DO.finditer(text),
            *(m for m in _LIMIT.finditer(text) if not _TOLD_OF_WHAT_WAS.search(text)),
            *(m for m in _GETS_NONE.finditer(text) if m.group("all") or set(m.group("x").lower().split()) & (
                _GIVEN | _TREATS)),
            *_NAMED_RULE.finditer(sent.raw),  # (its label, which the sentence's text is cut from)
            *_RULE_FROM_ME.finditer(text),
            *(m for m in _RULE_LABEL.finditer(text) if len(m.group("lead").split()) <= 10 and _RULE_BODY.search(
                m.group("rule")) and not _NAMED_RULE.match(sent.raw) and not _RULE_FROM_ME.match(text)),
            *_NOT_EVER.finditer(text)]


def forbids_given(sent: _Sentence) -> set[str]:
    """The foods and medicines the sentence forbids ("remember NO ibuprofen for Poppy, it sets off her asthma"): a
    rule beside the condition it is said with, which had been the sentence's only constraint."""
    return {w for m in _NO_FOOD.finditer(sent.text) for w in m.group("x").lower().split() if w in _GIVEN}


_HANDLING = frozenset("lifts carries moves shifts handles".split())
_HANDLING_WORDS = ["lift", "lifting", "carry", "heavy", "shift", "alone", "himself", "herself", "own"]


_NOT_NEEDED = re.compile(r"[^.;!?,]{0,40}?\b(?:needed|required|necessary|due|owed|to\s+pay)\b", _I)
_KEPT_WORDS = frozenset("kept keep must never goes go still always needs need has have should well".split())


_CLAUSE_MARK = re.compile(r"[,;.!?]")


def _clause_end(text: str, pos: int) -> int:
    m = _CLAUSE_MARK.search(text, pos)
    return m.start() if m else len(text)


def rules(sent: _Sentence, reg: _Registry | None = None,
          recent: str | None = None) -> list[tuple[str, list[str], list[str]]]:
    """The sentence as a standing rule of its speaker's, when a clause of it is one; of the
    person it opens with, when it does ("Mei works nights, so no visits or viewings in the
    morning": Mei's, though the landlord said it; it had been "Tom set a rule: ..."), or of the one
    named last before it (`recent`) that its "he" or "she" opens with."""
    kept = [m for m in _KEPT_FROM.finditer(sent.text) if m.group("x").lower() not in lx.PRONOUNS | lx.STOPWORDS]
    for m in [*_NO_RULE.finditer(sent.text), *_BANNED.finditer(sent.text), *_BUT_NO.finditer(sent.text), *kept,
              *_NOBODY.finditer(sent.text), *_MEANS_NEED.finditer(sent.text), *_HAS_TO_BE.finditer(sent.text),
              *_NO_AT_ALL.finditer(sent.text), *_IS_NO.finditer(sent.text), *_NEVER_LEAVE.finditer(sent.text),
              *_NO_FOR_A_WHILE.finditer(sent.text), *_YOU_ARE_NOT.finditer(sent.text),
              *_NEVER_IS.finditer(sent.text),
              *_short_rules(sent)]:
        x = (m.groupdict().get("x") or m.groupdict().get("y") or "").lower().split()  # (none: "it")
        if x and (x[-1] in _NOT_RULES or x[0] in ("more", "longer", "one", "way", "matter", "it", "this", "that",
                                                   "wait")):  # ("no wait that was for Priya": taken back)
            continue
        if m.re is _NO_RULE and _NOT_NEEDED.match(sent.text, m.end()):
            continue  # "no payments on account needed since it's under £1,000": nothing owed, no rule
        # (the rule from its dash on: "He's strict - absolutely no flash inside the church" is no rule of "he")
        # (... or its colon after words that only ask for a rule: "Can we put a rule in: no deliveries before 8am, ever";
        # "house rules for both homes: no phones at the table" keeps what they are for)
        # (and a rule for a while said after something else: "He's cleared her to swim butterfly again but only light,
        # no fly sets longer than 100m for now": the rule from its "no")
        cut = bool(re.search(r"\s[-–—]\s*$", sent.text[:m.start()]) or _ASKS_FOR_A_RULE.search(sent.text[:m.start()])) \
            if m.re is _NO_RULE else m.re is _NO_FOR_A_WHILE and m.start() > 0
        # (and from its colon: "one rule from me while we're setting up: any spend over £100 needs ...")
        told = sent.text[m.start("rule"):] if m.re in (_RULE_FROM_ME, _RULE_LABEL, _NOT_EVER) else sent.text[m.start():] if cut \
            else sent.text
        said = rewrite(told.strip().rstrip("."), _Voice(sent.t.speaker, sent.t.other))
        # (kept from a place: whom and where, not the rest's words: "Biscuit must be kept away
        # from the site, full stop" brought the rule to "Why did they stop working with Marek?")
        keys, words = situation_cues(sent.text[:_clause_end(sent.text, m.end())] if m in kept else told if cut
                                     else sent.text)
        if m in kept:
            words = [w for w in words if w not in _KEPT_WORDS]
        if m.re is _NEVER_LEAVE:  # (data found by sending it anywhere: "How do I send the recordings to Marta?")
            what = m.group("x").lower().split()[-1]
            words = list(dict.fromkeys([*words, *(_SENDING if what in _FILES else ["take", "lend", "borrow"]), what]))
        if m.re is _NOBODY and m.group("x").lower() in _HANDLING:  # (found by a fridge shifted alone too)
            words = list(dict.fromkeys([*words, *_HANDLING_WORDS]))
        if m.re in _SHORT_RULES:  # found by what it rules, not by whom or a day ("Isla max 20 minutes a day" had
            # come with every question naming Isla or the nursery)
            named = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+", sent.text)}
            words = [w for w in words if w not in named and w not in _SHORT_RULE_FILLER] or words
            if m.re is _LIMIT and _TIME_LIMIT.match(m.group("x") or m.group("y")):
                # (a limit of time found by how long: "how long can he take Otis out for?")
                words = list(dict.fromkeys([*words, "long", "time"]))
            if m.re is _NAMED_RULE:  # (and by its label, and the situations it names: "Screen time rule: ...")
                label_keys, label_words = situation_cues(m.group("x") or "")
                keys = list(dict.fromkeys([*label_keys, *keys]))
                words = list(dict.fromkeys([*label_words, *words]))
        if m.re is _RULE_LABEL:
            # told under its label ("The hospice rule for feed stations: nothing containing nuts, at all"), found by
            # what it rules first
            body = rewrite(m.group("rule").strip().rstrip("."), _Voice(sent.t.speaker, sent.t.other))
            head = rewrite(m.group("label"), _Voice(sent.t.speaker, sent.t.other))
            rule_keys, rule_words = situation_cues(m.group("rule"))
            if set(re.findall(r"[a-z]+", m.group("rule").lower())) & lx.FOODS:
                rule_keys = ["food", *rule_keys]  # ("nothing containing nuts": what is eaten)
            return [(f"{head[:1].upper()}{head[1:]}: {body}", list(dict.fromkeys([*rule_keys, *keys])) or ["rules"],
                     list(dict.fromkeys([*rule_words, *words])))]
        first = sent.opens_with(reg) if reg is not None else None
        if first is not None and first.type == "person" and not first.speaker and m.start() > 0:
            return [(f"{first.name}'s rule: {said[:1].upper()}{said[1:]}", keys or ["rules"], words)]
        # ("And he is NOT allowed ibuprofen or aspirin with it, only paracetamol", said of Gerry: his rule, found by
        # a question about him; it had been "Maggie set a rule: He is ...")
        if recent and (he := _HE_FIRST.match(said)) is not None and kin_gender(recent) in (
                None, "f" if he.group("he").lower() == "she" else "m"):
            said = f"{recent}{said[he.end('he'):]}"
            return [(f"{recent}'s rule: {said}", keys or ["rules"], words)]
        return [(f"{sent.t.speaker} set a rule: {said[:1].upper()}{said[1:]}", keys or ["rules"], words)]
    return []


_HE_FIRST = re.compile(r"^(?:(?:and|so|also|but|oh)[,]?\s+)*(?P<he>he|she)\b(?!['’])", _I)


# What must go wherever someone goes: "Her inhaler has to be at every match, no exceptions", "Leo's
# EpiPen must come on every trip" (a "said" fact; "Maya has asthma" alone did not bring it to
# "We're packing for the Bournemouth weekend").
_WHOSE_MUST = (r"(?:^|(?<=[:;,])\s*|(?<=\band)\s+|(?<=\bso)\s+)(?P<whose>her|his|their|my|our|(?-i:[A-Z])[\w-]*['’]s)\s+"
               r"(?P<x>(?:[a-z][\w-]*\s+)?[a-z][\w-]*)\s+(?:has\s+to|have\s+to|must|needs\s+to|need\s+to|should)\s+"
               r"(?:always\s+)?")
_ALWAYS_WITH = re.compile(_WHOSE_MUST + r"(?:be|go|come|travel)\s+(?:at|to|with|on|in)\s+(?:every|all|each|any)\s+"
                          r"(?P<ev>[a-z][\w-]*)", _I)


# ... or in the hand luggage: "Whenever we fly, his medication must go in our hand luggage with the
# doctor's letter, never in the hold" (a "said" fact: "I'm packing our bags for the flight" found nothing).
# ("the insulin ALWAYS goes in hand luggage, never in the hold")
_IN_LUGGAGE = re.compile(r"(?:" + _WHOSE_MUST + r"(?:be|go|stay|travel)|(?:^|(?<=[:;,])\s*|(?<=\band)\s+|(?<=\bso)\s+)"
                         r"(?P<whose2>the|her|his|their|my|our)\s+(?P<x2>(?:[a-z][\w-]*\s+)?[a-z][\w-]*)\s+always\s+"
                         r"(?:goes|stays|travels|is|are))\s+in\s+(?:(?:our|the|my|his|her|their)\s+)?"
                         r"(?P<ev>hand\s+luggage|carry-?on|cabin\s+bags?|hand\s+baggage)", _I)
# ... or needed each time: "Maya gets really travel sick, so she always needs a window seat and a Kwells
# tablet before take off".
# ... or to be carried, the speaker's too: "I always have to carry glucose tablets, I keep Dextro in every jacket".
_ALWAYS_NEEDS = re.compile(r"(?:^|(?<=[:;,])\s*|(?<=\band)\s+|(?<=\bso)\s+)(?P<whose>she|he|(?-i:[A-Z])[\w-]*)\s+"
                           r"(?:always|must\s+always)\s+(?:needs?|has\s+to\s+have|gets?|(?P<must>(?:has|have)\s+to\s+"
                           r"(?:carry|take|bring|keep))|must\s+(?:carry|take|bring|keep))\s+(?P<x>[^.;!?]{3,80})", _I)
_FLYING = ["flight", "fly", "flying", "airport", "packing", "luggage", "bags", "travel", "trip", "plane"]


def always_with(sent: _Sentence, recent: str | None, reg: _Registry | None = None
                ) -> list[tuple[str, list[str], list[str]]]:
    """(text, situation keys, trigger words) of what the sentence says must go wherever someone goes:
    theirs by its "her"/"his" (`recent`, the person named last before it), "my"/"our" (the speaker's)
    or a name; found by a trip, packing or the event it names as well as by its own words."""
    m = _ALWAYS_WITH.search(sent.text) or _IN_LUGGAGE.search(sent.text)
    if m is None:
        return _always_needs(sent, recent, reg)
    mark = "whose" if m.group("whose") else "whose2"
    whose, what = m.group(mark), m.group("x") or m.group("x2")
    low = whose.lower()
    if low == "the":
        owner = "The"
    elif low in ("her", "his", "their"):
        if recent is None:
            return []
        owner = f"{recent}'s"
    elif low in ("my", "our"):
        owner = f"{sent.t.speaker}'s"
    else:
        owner = whose
    said = sent.text[m.end(mark):_clause_end(sent.text, m.end())].strip()
    keys, words = situation_cues(sent.text[:_clause_end(sent.text, m.end())])
    extra = ["trip", "travel", "packing", "away", "match", "outing", what.split()[-1], m.group("ev")]
    if m.re is _IN_LUGGAGE:
        said = sent.text[m.end(mark):].strip().rstrip(".!")  # (never in the hold: its words too)
        extra = [*_FLYING, what.split()[-1]]
    return [(f"{owner} {said}", keys or ["rules"], list(dict.fromkeys([*words, *extra])))]


def _always_needs(sent: _Sentence, recent: str | None, reg: _Registry | None
                  ) -> list[tuple[str, list[str], list[str]]]:
    m = _ALWAYS_NEEDS.search(sent.text)
    if m is None:
        return []
    who = m.group("whose")
    if who.lower() in ("she", "he"):  # the one the sentence named before it, else the one named last
        named = sent.named_before(reg, sent.s1_pos(m.start()), ("person",)) if reg is not None else []
        who = named[0].name if named else recent
    elif who == "I" and m.group("must"):
        who = sent.t.speaker  # (a need of the speaker's own: "I always need" is as often a habit)
    elif who.lower() in lx.STOPWORDS or who.lower() in lx.PRONOUNS:
        return []
    if not who or who == sent.t.speaker and not m.group("must"):
        return []
    said = rewrite(sent.text.strip().rstrip(".!"), _Voice(sent.t.speaker, sent.t.other))
    keys, words = situation_cues(sent.text)
    needs = [w for w in re.findall(r"[a-z][\w-]+", m.group("x").lower()) if w not in lx.STOPWORDS][:6]
    # (begun by whom it is about, as a constraint's text is)
    text = said if said.startswith(who.split()[0]) else f"{who} always needs {m.group('x').strip()}"
    return [(text[:1].upper() + text[1:], keys or ["needs"],
             list(dict.fromkeys([*words, *needs, "trip", "travel", "journey", *(("bag", "packing") if m.group("must")
                                                                                 else ())])))]
