"""A cell's turns as sentences: cleaned, dated, marked as questions, hedges or texting."""
from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta, timezone

from app.construction import lexicon as lx
from app.construction.dates import bare_days_named, find_dates
from app.construction.sentences import split_sentences
from app.domain.models import ASSISTANT_ROLES
from app.construction.local.bounds import MAX_SENTENCES_PER_TURN, MAX_SENTENCE_CHARS, MAX_TURN_CHARS
from app.construction.local.text import _clean_sentence, _clip, _normalise, _strip_emoji
from app.construction.local.inline_dates import tense_at
from app.construction.local.entities import _Mention
from app.construction.local.sentence import _Sentence, _Turn
from app.construction.local.fact_patterns import _FIRST, _I
from app.construction.local.voice import without_emphatic
from app.construction.local.replies import as_agreed, as_answer
from app.construction.local.sequels import moved_to, sequel, told_again


_HEDGE = re.compile(r"\b(?:" + "|".join(re.escape(h) for h in lx.HEDGES) + r")\b", _I)
_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|heya|good\s+(?:morning|afternoon|evening|night)|thanks|thank\s+you|thx|bye|"
    r"goodbye|see\s+you|see\s+ya|take\s+care|talk\s+(?:to\s+you\s+)?(?:soon|later)|congrat\w*|welcome|"
    r"nice\s+to\s+(?:meet|see|hear)|glad\s+to\s+hear|happy\s+to\s+hear|sounds\s+(?:good|great|fun))\b", _I)
# Words about the conversation itself, no news: "Quick update.", "You're welcome Hannah, have a
# good afternoon", "Thanks, that's all for today!", "How was your week, by the way?".
SMALL_TALK = re.compile(
    r"^(?:(?:quick|small|short|brief|another|one\s+more|big|some|good|bad)\s+(?:update|news|question|thing|"
    r"one|favou?r|note)s?\b[\s.!:]*$|(?:you're|you\s+are)\s+(?:very\s+|most\s+)?welcome\b|"
    r"(?:have|enjoy)\s+a\s+(?:good|great|nice|lovely)\s+(?:day|afternoon|evening|weekend|week|one)\b|"
    r"(?:thanks?,?\s+)?that's\s+(?:all|it)(?:\s+for\s+(?:today|now))?\b[\s.!]*$|"
    r"how\s+was\s+your\s+(?:week|day|weekend)\b)", _I)
# News announced, not told: "You will not believe this.", "Guess what!" (it had been a plan, "Owen will not
# believe this", kept in mind for a month).
_DRUMROLL = re.compile(r"^(?:(?:oh|omg|ok|okay|so|well|right)[,!]?\s+)*(?:(?:you|you're|you\s+are)\s+(?:will\s+not|"
                       r"won't|wont|wouldn't|would\s+not|will\s+never|never|not\s+going\s+to|never\s+going\s+to)\s+"
                       r"believe\s+(?:this|it|what|who)\b[^.!?]*|guess\s+what)[\s.!?]*$", _I)
_REACTION = re.compile(
    r"^(?:that|this|it|sounds|what|so|how|wow|such|same|haha|lol|aw+|cool|great|nice|awesome|amazing|glad|"
    r"happy|sorry|love|lovely|wonderful|beautiful|congrats|good|oh|yes|yeah|no|sure|true|totally|brilliant|"
    r"fantastic|excellent|perfect|"
    r"definitely|absolutely|exactly|agreed|looks|seems|hope|can't wait|you|"
    # "Fine so far.", "Not bad, thanks": how it went, said to "how did it go?"
    r"fine|okay|ok|alright|all\s+good|not\s+(?:bad|great|too\s+bad)|pretty\s+(?:good|well|bad)|going\s+well)\b", _I)
# What an assistant says of itself is a fact only when it did something or recommends something
# ("I booked a table", "I'd recommend the Infante Sagres"): its offers, promises and courtesies
# ("I can look for shows", "I'm sorry to hear that", "I'll keep that in mind") are not so of
# anyone. Said of nothing and no one it names ("Sounds like a full house"), nor is the rest.
_ASSISTANT_DID = re.compile(
    r"^(?:(?:has|had|just|already|also)\s+)*"
    # what it keeps of what it was told is a confirmation ("I've noted that Marco is on call")
    r"(?!(?:noted|understood|logged|saved|remembered|memori[sz]ed|recorded|updated\s+my\s+notes)\b)"
    r"(?:[a-z]+ed|[a-z]+ent|found|made|set|put|got|bought|sent|took|"
    r"wrote|paid|chose|moved|ran|gave|told|left|booked|(?:would\s+|could\s+)?(?:recommends?|suggests?))\b", _I)


# Its opinion of a place or a plan, said alone, is no memory either: "Lisbon is lovely in winter",
# "Porto is a great choice", "Lloyd Park should be nice for easy runs". Not with more said after
# it: "Sintra is beautiful and worth it, but it's steep", "York is a great choice - flat, walkable".
_ASSISTANT_OPINION = re.compile(
    r"^(?:is|are|should\s+be|would\s+be|will\s+be|must\s+be|sounds?|looks?)(?:\s+(?:so|really|very|such))?"
    r"(?:\s+(?:a|an))?(?:\s+(?:great|good|nice|lovely|beautiful|wonderful|perfect|fun|amazing|fantastic|"
    r"brilliant|solid|smart|sensible|excellent|ideal|gorgeous|stunning|worth))\b", _I)


_MORE_SAID = re.compile(r"[,;:\-\u2013\u2014]|\b(?:but|and|though|although|because|so)\b", _I)


_ONE_SITTING = timedelta(hours=1)


def _asked_after(out: list, t) -> object | None:
    """The last sentence of `t`'s speaker in the turn before the one before `t`, when that one (the turn just
    before) is another's question."""
    if not out[-1].question or out[-1].t.speaker == t.speaker or out[-1].t.index != t.index - 1:
        return None
    own = next((o for o in reversed(out) if o.t.index == t.index - 2 and o.t.speaker == t.speaker), None)
    # (in one sitting: an answer days after the question is no sequel of what was said before it)
    return own if own is not None and t.turn.at - own.t.turn.at <= _ONE_SITTING else None


def assistant_chatter(kind: str, predicate: str, says_something: bool, text: str = "") -> bool:
    """Whether an assistant's sentence, parsed as `kind` with `predicate`, is no memory (`text`:
    the predicate and its object, for an opinion)."""
    if kind == "speaker":
        return not _ASSISTANT_DID.match(predicate)
    if _ASSISTANT_OPINION.match(text or predicate) and len(text.split()) <= 8 and not _MORE_SAID.search(text):
        return True
    return kind == "reported" and not says_something


_WE = re.compile(r"(?<![\w'])(?:we|we're|we've|we'll|we'd|us)(?![\w'])", _I)
_LIFE = re.compile(r"\b(?:" + "|".join(re.escape(p) for p in lx.LIFE_EVENTS) + r")\b", _I)
_ASSISTANT_ROLES = ASSISTANT_ROLES


def _aware(at: datetime) -> datetime:
    if not isinstance(at, datetime):
        at = datetime.combine(at, time(0, 0)) if isinstance(at, date) else datetime.now(timezone.utc)
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


_PRO_DROP = re.compile(
    r"(?:(?:just|really|finally|also|still|totally|honestly|actually)\s+)*(?:can't|cannot|went|got|had|"
    r"love|loved|hate|hated|need|needed|want|wanted|started|finished|bought|made|took|saw|met|visited|"
    r"tried|moved|joined|signed|booked|spent|learned|learnt|found|heard|watched|ran|did|won|lost|adopted|"
    r"upgraded|ordered|hired|"
    r"graduated|quit|left|wish|hope|miss|missed|gotta)\b(?!\s+(?:is|was|are|were|has|had)\b)", _I)
_PRO_DROP_ING = re.compile(
    r"(?:(?:just|really|still|currently|finally)\s+)*(?:heading|planning|thinking|hoping|looking|working|"
    r"feeling|trying|getting|taking|starting|leaving|flying|driving|moving|learning|reading|watching|"
    r"training|studying|preparing)\b(?!\s+(?:is|was|are|were|has|had)\b)"
    # ... or a noun whose verb follows: "Training moves to Wednesday from this week", "Parking starts at 9"
    r"(?!\s+(?:now\s+|also\s+)?(?:moves|moved|starts|started|changes|changed|finishes|finished|begins|ends|"
    r"ended|costs|costed|will|shifts|shifted|switches|switched|resumes|resumed|runs|ran|"
    r"change|changes|update|news|schedule|times|day|days|slot|venue|kit)\b)"  # ("Training change again")
    # the gerund a subject: "Driving in November is Mrs Okafor", "Training for a marathon is hard"
    r"(?!(?:\s+(?!(?:so|and|but|because|then)\b)[\w'-]+){1,3}\s+(?:is|was|are|were)\s)"
    # ... or a noun's ("Planning permission granted this morning!!", "Parking permit approved")
    r"(?!\s+[\w'-]+\s+(?:granted|approved|refused|rejected|accepted|sorted|confirmed|submitted|signed|"
    r"done|fixed|booked|passed|received|issued|renewed)\b)", _I)


def _pro_drop(text: str, who: str = "I") -> str:
    """Chat often drops the 'I': "Went hiking yesterday" -> "I went hiking yesterday"; or, answering
    a question about "he" or "she" (`who`), that one: "did he say why?" "got a job driving for Ocado"."""
    if _PRO_DROP.match(text):
        return f"{who} " + text[0].lower() + text[1:]
    if _PRO_DROP_ING.match(text):
        return ("I'm " if who == "I" else f"{who}'s ") + text[0].lower() + text[1:]
    return text


# A question about him or her: "did he say why?", "what did she say?", "is he ok?"
_ASKED_OF = re.compile(r"\b(?:did|does|do|has|is|was|will|would|can|could|what's|where's|how's)\s+(?P<p>he|she)\b|"
                       r"\b(?P<p2>he|she)\s+(?:say|said|says|tell|told|mention|mentioned)\b", _I)


_HE_OR_SHE_FIRST = re.compile(r"^\W*(he|she)(?:'s|\s+is|\s+has|\s+was)?\b", _I)


def _without_mentions(text: str, mentions: list[_Mention]) -> str:
    parts, pos = [], 0
    for m in mentions:
        if m.start >= pos:
            parts.append(text[pos:m.start])
            pos = m.end
    parts.append(text[pos:])
    return " ".join(parts)


# A day said instead, then why, in one sentence: "no wait, wednesday 9th, I'm quoting at the Hendersons on the
# tuesday" is the day taken back to (a sentence of its own, which the fact said before takes) and what the
# speaker does (it had been "on 2026-12-09, Bethan is quoting at the Hendersons").
_DAY_THEN_WHY = re.compile(
    r"^(?P<day>(?:(?:sorry|oops|no|wait|actually)\b[\s,:;!.-]*)+(?:i\s+meant?\s+|make\s+(?:that|it)\s+|it'?s\s+)?"
    rf"(?:on\s+)?(?:(?:{lx.WEEKDAY_ALT})\b(?:\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?)?|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?)"
    rf"(?:\s+(?:of\s+)?(?:{lx.MONTH_ALT})\b)?),\s+"
    r"(?P<why>(?:I|I'm|I've|I'll|we|we're|we've|he|she|they|he's|she's|they're)\s.+)$", _I)


# A number taken back in its sentence: "the Copper Kettle want 15 loaves a day from next monday - no wait, 16, he
# just texted again" wants 16 (both had been kept, unread).
_NUMBER_TAKEN_BACK = re.compile(r"\b(?P<n>\d+(?:\.\d+)?)(?P<mid>\s+[a-z][^.!?\d]*?)\s*(?:[-–—,;]+|\.\.\.)\s*"
                                r"(?:no\s+wait|wait\s+no|no\s+sorry|sorry|I\s+mean)[,\s]+(?P<new>\d+(?:\.\d+)?)\b", _I)


# ... or a value taken back right after it, said again in its shape: "leila's number is 07700 914382, no wait,
# 07700 914832 if you want to ring her" (the fact had kept the wrong number); why said between, the new value said of
# "it": "my costume is a 30, no wait she measured me again and it's a 32 now" (it had kept 30).
_VALUE_TAKEN_BACK = re.compile(r"(?<![\w.,:/-])(?P<old>[£$€]?\d[\d ,.:/-]*\d|[£$€]?\d)\s*(?:[-–—,;!]+|\.\.\.|\.(?=\s))\s*"
                               r"(?:no\s+wait|wait\s+no|no\s+sorry|sorry|I\s+mean)[,\s]+"
                               r"(?:[^.!?\d]{0,60}?\b(?:it'?s|it\s+is|that'?s|make\s+it)\s+(?:now\s+)?(?:an?\s+)?|it'?s\s+)?"
                               r"(?P<new>[£$€]?\d[\d ,.:/-]*\d|[£$€]?\d)(?![\w.,:/-]?\d)", _I)


# (what every turn is read for first, cheaply: most say no slip)
_SLIP_WORD = re.compile(r"\b(?:wait|sorry|oops|mean|meant)\b", _I)


# ... or a day: "Committee meeting moved to Wednesday 14th, no wait, Thursday 15th" (the 14th had been kept).
_DAY = rf"(?:(?:{lx.WEEKDAY_ALT})\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?|(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th))"
_DAY_TAKEN_BACK = re.compile(rf"\b{_DAY}\s*(?:[-–—,;!]+|\.\.\.)\s*(?:no\s+wait|wait\s+no|no\s+sorry|sorry|I\s+mean)[,\s]+"
                             rf"(?:it'?s\s+|I\s+meant?\s+)?(?P<new>{_DAY})\b", _I)  # ("no wait, I mean Sunday the 6th")


def _number_said_instead(text: str) -> str:
    if not _SLIP_WORD.search(text):
        return text
    m = _DAY_TAKEN_BACK.search(text)
    if m is not None:
        return f"{text[:m.start()]}{m['new']}{text[m.end():]}"
    m = _NUMBER_TAKEN_BACK.search(text)
    if m is not None:
        return f"{text[:m.start()]}{m['new']}{m['mid']}{text[m.end():]}"
    m = _VALUE_TAKEN_BACK.search(text)
    if m is not None and re.sub(r"\d+", "9", m["old"]) == re.sub(r"\d+", "9", m["new"]):
        return f"{text[:m.start()]}{m['new']}{text[m.end():]}"
    return text


# A name taken back right after it, said again alone: "Leo Marsh has a severe peanut allergy. no wait, it's Leon
# Marsh, Leo is the one in 9C" (the whole sentence, the allergy with it, had been taken back).
_NAME = r"[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?"
_NAME_TAKEN_BACK = re.compile(rf"(?P<said>[^.!?]*?)[.!?]*\s+(?:no\s+wait|wait\s+no|no\s+sorry|sorry|oops)[,\s]+"
                              rf"(?:it'?s|I\s+mean|I\s+meant)\s+(?P<new>{_NAME})(?P<end>\s*(?:[,;.!]+\s*|$))")


_DAY_OR_MONTH = re.compile(rf"(?:{lx.WEEKDAY_ALT}|{lx.MONTH_ALT})s?", _I)


def _name_said_instead(text: str) -> str:
    if not _SLIP_WORD.search(text):
        return text
    for m in _NAME_TAKEN_BACK.finditer(text):
        new = m["new"].split()
        # the name it replaces: one of its length sharing its surname, its title or its first name's start
        # ("Leo Marsh" / "Leon Marsh", "Dr Patel" / "Dr Shah", "Leo" / "Leon")
        words = list(re.finditer(r"[A-Z][a-z'’-]+", m["said"]))
        old = next((o for i in range(len(words) - len(new) + 1)
                    if (o := words[i:i + len(new)]) and " ".join(w[0] for w in o) != m["new"]
                    and m["said"][o[0].start():o[-1].end()] == " ".join(w[0] for w in o)
                    and (o[-1][0] == new[-1] or o[0][0] == new[0] or o[0][0][:3] == new[0][:3])), None)
        if old is None or _DAY_OR_MONTH.fullmatch(new[0]):
            continue
        said = m["said"]
        fixed = f"{said[:old[0].start()]}{m['new']}{said[old[-1].end():]}".rstrip(" ,;:-")
        rest = text[m.end():]
        return f"{text[:m.start('said')]}{fixed}.{' ' + rest[:1].upper() + rest[1:] if rest else ''}"
    return text


_EVER_ALONE = re.compile(r"(?:ever|not\s+ever|never\s+ever|ever\s+again)[.!]*", _I)


def _content(t: _Turn) -> str:
    return t.turn.content if isinstance(t.turn.content, str) else str(t.turn.content or "")


# A name put right in the turn after: "feed 2 at Bramley village hall at mile 41", then "sorry, not Bramley, I meant
# Bramford village hall" (the plan kept Bramley; "Not Bramley, Tom meant Bramford village hall" was a fact of its own).
_PUT_RIGHT = re.compile(r"^(?:(?:sorry|oops|whoops|no|wait|correction|my\s+bad)[\s,!.:-]+)+"
                        rf"(?:not\s+(?P<old>{_NAME})[\s,;-]+(?:I\s+meant|I\s+mean|it'?s|it\s+is)\s+(?P<new>{_NAME})|"
                        rf"(?:I\s+meant|I\s+mean|it'?s|it\s+is)\s+(?P<new2>{_NAME})[\s,;-]+not\s+(?P<old2>{_NAME}))"
                        r"(?=[\s,.;!]|$)")


def _names_put_right(contents: list[str], turns: list[_Turn]) -> list[str]:
    """`contents` (the turns' texts, in order), a name put right in a user's turn said right in the user's turn
    just before (an assistant's between), and the putting right said no more; the rest as it was."""
    out = list(contents)
    for k, t in enumerate(turns):
        if t.assistant or (m := _PUT_RIGHT.match(contents[k])) is None:
            continue
        old, new = m["old"] or m["old2"], m["new"] or m["new2"]
        if old == new or _DAY_OR_MONTH.fullmatch(old.split()[0]) or _DAY_OR_MONTH.fullmatch(new.split()[0]):
            continue
        said = re.compile(rf"(?<![\w'’-]){re.escape(old)}(?![\w'’-])")
        before = next((j for j in range(k - 1, max(-1, k - 4), -1) if not turns[j].assistant), None)
        if before is None or not said.search(out[before]):
            continue
        out[before] = said.sub(new, out[before])
        rest = contents[k][m.end():].lstrip(" ,.;!")
        rest = re.sub(r"^[^.!?]*?[.!?]\s*", "", rest) if rest[:1].islower() else rest  # (the rest of its sentence)
        out[k] = rest
    return out


# "it" called off in a reply to a question naming one thing: "Do you still need the damp specialist on Monday?" "nah,
# I've cancelled it." ("Tom has cancelled it" ended nothing: the booking's plan stayed).
_CANCELLED_IT = re.compile(r"^(?P<lead>(?:(?:nah|no|nope|yeah|yes|ok|oh)[\s,!.]+)*(?:I|we)(?:'ve|\s+have)?\s+(?:just\s+|already\s+)?"
                           r"(?:cancell?ed|called\s+off|scrapped|dropped))\s+it\b", _I)
_ONE_THING_ASKED = re.compile(r"\b(?:need|want|keep|have|doing|going\s+ahead\s+with|still\s+on\s+for)\s+(?P<x>(?:the|your|our)\s+"
                              r"(?:[\w'-]+\s+){0,3}?[\w'-]+(?:\s+(?:on|at|for)\s+[\w'-]+)?)\s*\?\s*$", _I)


def _its_named(contents: list[str], turns: list[_Turn]) -> list[str]:
    """`contents`, a user's "I've cancelled it" answering the turn just before's question of one thing said of it."""
    out = list(contents)
    for k, t in enumerate(turns):
        if k == 0 or t.assistant or (m := _CANCELLED_IT.match(contents[k])) is None:
            continue
        if (asked := _ONE_THING_ASKED.search(contents[k - 1])) is not None:
            out[k] = f"{m.group('lead')} {asked.group('x')}{contents[k][m.end():]}"
    return out


# A standing rule asked as a question: "oh one more thing, can you never suggest diet drinks with aspartame
# for me?" is "Never suggest diet drinks with aspartame for me." (the question had been no rule, nothing).
_ASKED_AS_RULE = re.compile(r"^(?:(?:oh|and|also|so|btw|ok|okay)[,]?\s+)*(?:one\s+more\s+thing[,:]?\s+)?"
                            r"(?:can|could|would|will)\s+you\s+(?:please\s+)?(?P<how>always|never)\s+"
                            r"(?:please\s+)?(?P<rest>[^?]+)\?+$", _I)
# A question texted without its mark: "did you use the clean tins" (it had been the fact "Tom did Nadia use ...").
_ASKED_WITHOUT_MARK = re.compile(r"^(?:(?:and|so|also|btw|oh|hey)[,]?\s+)*(?:did|do|does|have|has|are|were|can|could|"
                                 r"will|would)\s+(?:you|u|we|they|he|she)\s+(?!(?:know|think|remember)\s+(?:that|if)\b)"
                                 r"[a-z][^.!?]*$", _I)
_DAYS_NAMED_TURNS = 3  # turns before whose days ahead a bare "the 11th" or "Sunday" may be


def _lately(out: list[_Sentence], end: int, since: int) -> list[_Sentence]:
    """The sentences of `out` before `end` from turn `since` on (read from the end: an episode's first ones
    are far behind)."""
    start = end
    while start > 0 and out[start - 1].t.index >= since:
        start -= 1
    return out[start:end]


def _days_apart(raws: list[str]) -> list[str]:
    out = []
    for raw in raws:
        m = _DAY_THEN_WHY.match(raw)
        out += [m["day"] + ".", m["why"][:1].upper() + m["why"][1:]] if m is not None else [raw]
    return out


def _lowercase(raw: str) -> bool:
    """Texting in lower case: the sentence does not begin with a capital (one that simply names
    no one still does). Some names in it may be capitalised, others not."""
    first = next((c for c in raw if c.isalpha()), "")
    return first.islower()


def _addressed(turns: list[_Turn]) -> re.Pattern | None:
    """A sentence's opening address to the episode's assistant by name: "Pilot, Sofia Alvarez is
    joining us" (it was "Ravi said pilot, Sofia Alvarez is joining Ravi"), "Vow, the hen do is booked!";
    with no comma before what it is asked ("Mise never put an order in with Harbour again" was a fact
    of Mise's)."""
    names = sorted({t.speaker for t in turns if t.assistant and t.speaker}, key=len, reverse=True)
    if not names:
        return None
    alt = "|".join(re.escape(n) for n in names)
    # (a label before it: "the important bit Juniper: he is NOT allowed to drive ...")
    return re.compile(rf"^(?:(?:hi|hey|hello|ok|okay|so|and)\s+)?(?:(?:the\s+)?(?:important|main|key|big|one|other|"
                      rf"crucial)\s+(?:bit|thing|point|part)\s+(?=(?:{alt})\s*:))?(?:{alt})(?:\s*[,:]\s+|\s+(?=(?:please\s+|pls\s+)?"
                      r"(?:never|always|don'?t|do\s+not|from\s+now\s+on|can\s+you|could\s+you|would\s+you|"
                      r"remind|remember|note|make\s+a\s+note|add|put|book|find)\b))(?=\S)", _I)


def _sentences(turns: list[_Turn]) -> list[_Sentence]:
    out: list[_Sentence] = []
    addressed = _addressed(turns)
    asked: tuple[str, str] | None = None  # (who, what) when the turn before ended on a question
    contents = _its_named(_names_put_right([_normalise(_content(t)[:MAX_TURN_CHARS]) for t in turns], turns), turns)
    for t, content in zip(turns, contents):
        begun = len(out)  # (where this turn's sentences begin: a sequel may pop its first's)
        first = True
        content = _number_said_instead(_name_said_instead(content))  # (and "we're on 143! no wait, 134")
        for raw in _days_apart(split_sentences(content, MAX_SENTENCES_PER_TURN)):
            if len(raw) > MAX_SENTENCE_CHARS:
                raw = _clip(raw, MAX_SENTENCE_CHARS).rstrip("\u2026")
            text = _number_said_instead(without_emphatic(_clean_sentence(raw)))
            if addressed is not None and not t.assistant and (m := addressed.match(text)):
                text = _clean_sentence(text[m.end():])
            if not text or not any(ch.isalnum() for ch in text) or _DRUMROLL.match(text):
                continue
            if out and out[-1].t is t and not t.assistant and _EVER_ALONE.fullmatch(text):
                # ("I don't take on medical translations. Ever.": the sentence before, said for always)
                out[-1].text = f"{out[-1].text.rstrip(' .!')}, ever."
                continue
            if (rule := _ASKED_AS_RULE.match(text)) is not None:
                text = f"{rule['how'][:1].upper()}{rule['how'][1:]} {rule['rest'].rstrip(' ?')}."
            question = (text.rstrip().endswith("?") or _ASKED_WITHOUT_MARK.match(raw) is not None) \
                and not _FIRST.match(text) and not re.match(r"(?:my|our)\b", text, _I)
            if first and not question and not t.assistant and asked and asked[0] != t.speaker:
                # "Is training on a set day?" "yep Tuesdays 6pm": "Training is on Tuesdays 6pm."
                # (or what the speaker said before the question: "they want to push the engagement shoot" "What
                # did she suggest?" "Sunday the 15th instead": the shoot's new day)
                own = _asked_after(out, t)
                # ("Can we move swimming to 5:30 from next week?" "Yes 5:30 is fine": the value agreed)
                # (the move told in any sentence of that turn: "Maths have moved Paper 1 AGAIN. Mr Adebayo wants the
                # Tuesday ..." "to when??" "Wednesday 13th")
                text = (as_answer(asked[1], text) or (moved_to(own.text, text, lambda: " ".join(
                    o.text for o in out if o.t is own.t), asked=asked[1]) if own is not None else None)
                        or as_agreed(asked[1], text) or text)
            elif first and not question and not t.assistant and out and out[-1].t.speaker != t.speaker:
                # "I'd like to raise the fundraising target to £4,500" "yes, £4,500 it is"
                text = as_agreed(out[-1].text, text) or text
            elif not question and out and (not first and out[-1].t is t or first and not t.assistant and (
                    out[-1].t.speaker == t.speaker and out[-1].t.index == t.index - 1)):
                # "Millbrook just put flour up. It's £19.80 a sack now": the flour's price (in its turn,
                # or the next one of the same speaker: "New order: christening cake for ..." "collection
                # Saturday 7 November")
                # (what was said before, read only by a sentence of a sequel's shape: most are none)
                before = out[-1]
                told = sequel(before.text, text,
                              lambda: " ".join(o.text for o in out[-MAX_SENTENCES_PER_TURN * 2:]
                                               if o.t is t or o.t is before.t),
                              lambda: " ".join(o.text for o in out[-8:]))
                if told is not None and told_again(out[-1].text, told) and out[-1].t is t:
                    out.pop()  # ("Flights booked!": the sentence after says it, with the day)
                text = told or text
            answers = first and not t.assistant and asked is not None and asked[0] != t.speaker
            first = False
            if not question:
                of = _ASKED_OF.search(asked[1]) if answers else None
                # (or the "he" or "she" the sentence before in the turn opened with: "He's in! Moved in yesterday")
                opened = _HE_OR_SHE_FIRST.match(out[-1].raw) if of is None and out and out[-1].t is t else None
                who = (of.group("p") or of.group("p2")) if of else opened.group(1) if opened else "I"
                text = _pro_drop(text, who.capitalize())
            dates = find_dates(text, t.at, prefer=tense_at(text))
            out.append(_Sentence(t=t, order=len(out), text=text, raw=_strip_emoji(raw), question=question,
                                 hedged=bool(_HEDGE.search(raw)), dates=dates,
                                 lowercase=_lowercase(raw)))
        last = out[-1] if out and out[-1].t is t else None
        asked = (t.speaker, last.text) if last is not None and last.question else None
        # A bare "the 24th" is the day another sentence of the turn names with its month, or one the turns
        # just before named ahead.
        said = out[begun:]
        turn_days = [d for s in said for d in s.dates]
        lately = _lately(out, begun, t.index - _DAYS_NAMED_TURNS)
        earlier = [d for s in lately for d in s.dates]
        if len(said) > 1 or earlier:
            just_before = [d for s in lately if s.t.index == t.index - 1 for d in s.dates]
            for k, s in enumerate(said):
                if s.dates:
                    # (a weekday of the turn before's only in the turn's first sentence, which answers it: "Mrs O
                    # brought the Brompton back. Fitting a Marathon Plus saturday" is the coming one, not the "Saturday
                    # 2 January" the turn before said the shop opens again)
                    s.dates = bare_days_named(s.dates, turn_days, t.at.date(), s.text, earlier,
                                              just_before if k == 0 else ())
    return out
