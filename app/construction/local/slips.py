"""A value taken back as soon as it was said: "she's dropped my Tresiba to 15 units from tonight",
then "no wait, 16. 15 is what she said we might go to next". The 15 was never the dose: its fact is
`retracted` (FactDraft.retracted), which the writer stores as the fact's status. A retracted fact
is on no timeline (the 16 replaces the 18 said before the slip), never a value held earlier ("What
was his dose before the last change?" had been answered 15), and shown only to a search that
includes everything.

Only a correction said as one ("no wait", "sorry, I meant", "oops", "correction") within the next
few turns takes a value back: a value changed later, or changed with no such words ("they've put
it up to £50"), held until then and is superseded as before."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

from app.domain.models import FactDraft

# A sentence that says the one before it was wrong ("no wait, 16.", "Sorry, I meant Thursday",
# "oops, £2,430", "Correction: the 28th", "sorry no, 22047751"; not "Sorry to hear that", nor "sorry I'm late").
_SLIP = re.compile(r"(?:^|[.!?]\s+)(?:(?:no|nope|oh)[\s,!.-]+)?"
                   r"(?:wait\b|oops\b|whoops\b|correction\b|typo\b|my\s+(?:bad|mistake)\b|"
                   r"(?:sorry[\s,!.-]+)?I\s+meant\b|"
                   r"sorry[\s,!.-]+(?:no[\s,!.-]+)?(?:typo\b|my\s+bad\b|I\s+mean\b|it'?s\b|it\s+is\b|not\b|make\s+(?:it|that)\b|[£$€]?\d|the\s+\d))",
                   re.IGNORECASE)
# ... unless what it corrects is its own number, right before it ("entries update: we're on 143! no wait, 134": the
# turn says 134, and the 48 said days before had been taken back)
_PUT_RIGHT_AT_ONCE = re.compile(r"\d[\d,.:]*\s*(?:[-–—,;!.]+|\.\.\.)?\s*(?:no\s+wait|wait\s+no|no\s+sorry|sorry|I\s+mean)"
                                r"[,\s]+[£$€]?\d", re.IGNORECASE)
# Turns after the slip within which a correction takes it back (the speaker's next message, or the
# other's answer, with the assistant's echo between).
WITHIN = 3
# ... and within this time of it: a value said a fortnight before in the same episode ("rehearsals are Tuesday nights",
# then "rehearsals move to Wednesday" "no wait, Thursday") was held until the change, never a slip.
SOON = timedelta(hours=1)


def corrects_before(text: str) -> bool:
    """Whether a turn's text says a value just said was wrong."""
    return _SLIP.search(text) is not None


def retract_slips(facts: list[FactDraft], turns: list) -> list[FactDraft]:
    """`facts` with each value a correction took back marked retracted (`turns`: the episode's,
    each with .turn (a TurnRecord), .index and .assistant, in order). A fact is taken back when a
    user's turn soon after it says it corrects and holds a fact of the same subject and
    predicate with another value: a single-valued one, or one the extractor already ended at
    that turn (the value said instead: episode._said_instead)."""
    where = {t.turn.id: t for t in turns}
    fixing = {t.turn.id for t in turns if not t.assistant and corrects_before(t.turn.content or "")
              and not _PUT_RIGHT_AT_ONCE.search(t.turn.content or "")}
    if not fixing:
        return facts
    out = list(facts)
    for k, new in enumerate(facts):
        fix = where.get(new.turn_ids[0]) if new.turn_ids else None
        if fix is None or fix.turn.id not in fixing:
            continue
        # the value of the same thing said last before the correction (the dose said a week before
        # the slip is the one the correction's value replaces, not one taken back)
        before = [(where[f.turn_ids[0]].index, i) for i, f in enumerate(out)
                  if f.turn_ids and f.turn_ids[0] in where and where[f.turn_ids[0]].index < fix.index
                  and f.subject.casefold() == new.subject.casefold() and f.predicate == new.predicate]
        # one the extractor ended at the correction (the value said instead, by whoever said it right), else the
        # latest
        ended = [i for i, f in enumerate(out) if f.valid_to is not None and f.valid_to == fix.turn.at
                 and f.predicate == new.predicate and f.turn_ids and f.turn_ids[0] in where
                 and where[f.turn_ids[0]].index < fix.index]
        latest = [max(before)[1]] if before and not ended else []
        for i in ended + latest:
            old, said = out[i], where[out[i].turn_ids[0]]
            if (old.retracted or said.assistant or fix.index - said.index > WITHIN or fix.turn.at - said.turn.at > SOON
                    or old.object.casefold() == new.object.casefold() and old.text.casefold() == new.text.casefold()):
                continue
            if i in ended or (old.single_valued and new.single_valued and old.valid_to is None):
                out[i] = replace(old, retracted=True, valid_to=fix.turn.at)
                if old.valid_from is not None and old.valid_from > said.turn.at and (
                        new.valid_from is None or new.valid_from <= fix.turn.at):
                    # the value said right holds from the day the slip was to ("raising my day rate to £340 from 1
                    # November" "sorry, £350": £350 from 1 November, not from the apology)
                    out[k] = new = replace(out[k], valid_from=old.valid_from, valid_from_until=old.valid_from_until)
    return out
