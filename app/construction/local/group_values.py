"""Values a group holds one at a time, said by any of its people: who supplies what, a booking's
head count, a purchase's price, an event's vendors and guest count, a post's new holder, a class's
topic, a rota (readers of local/measures.py, each given the sentence's values, `_Values`)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.construction import lexicon as lx
from app.construction.local.event_counts import entry_counts, start_times
from app.construction.local.fact_patterns import DAY as _DAY, NAME as _NAME
from app.construction.local.inline_dates import _fill

if TYPE_CHECKING:  # (measures.py reads with these: no import back at run time)
    from app.construction.local.measures import _Values


# Days off and working days, one set at a time: "I'm off on Mondays", then "I'll be off on
# Tuesdays instead of Mondays" (both stayed current, Mondays first for "Which day is Dmitri off?");
# "Marta works Wednesday to Sunday".
_DAYS = rf"(?P<when>{_DAY}(?:\s*(?:/|,|&|and|to|-|through)\s*{_DAY})*)\b"
_DAYS_OFF = re.compile(
    rf"(?<![\w'])(?P<who>I|we|[A-Z][\w-]+)(?:'m|'re|'s|'ll\s+be|\s+am|\s+is|\s+are|\s+will\s+be)\s+"
    rf"(?:(?:now|usually|always|normally|only)\s+)?off\s+(?:on\s+)?{_DAYS}", re.I)
_DAY_OFF_IS = re.compile(
    rf"(?P<whose>my|our|his|her|[A-Z][\w-]+['’]s)\s+(?:new\s+)?days?\s+off\s+(?:is|are|will\s+be)\s+"
    rf"(?:now\s+)?{_DAYS}",
    re.I)
# ("Lena currently works Wednesday to Saturday evenings": Lena's, with the part of the day; its
# subject had been "currently", re.I letting [A-Z] match it)
_WORK_DAYS = re.compile(
    rf"(?<![\w'])(?P<who>I|we|she|he|(?-i:[A-Z])[\w-]+)"
    rf"(?:\s+(?:now|usually|normally|only|currently|still|mostly))*"
    # ("she's now on Wednesday to Sunday": a range of days one is on)
    rf"(?:\s+work(?:s)?|(?:'s|\s+is|'m|\s+am)(?:\s+now)?\s+on(?=\s+{_DAY}\s*(?:to|-|through)\s*{_DAY})|"
    # ("Bev's days are changing after half term, she'll be in Tuesdays and Thursdays only")
    rf"(?:'ll|\s+will)\s+(?:now\s+)?be\s+in(?:\s+on)?(?=\s+{_DAY}s?\b))"
    rf"\s+(?:on\s+)?(?:from\s+)?"
    rf"(?P<when>{_DAY}(?:\s*(?:/|,|&|and|to|-|through)\s*{_DAY})*(?:\s+(?:mornings|evenings|afternoons|nights))?)"
    r"\b(?!\s+(?:at|mornings?|evenings?|nights?))", re.I)


# Who supplies what, one firm at a time: "Our fish comes from Porto Fresco Seafood", then "We're
# switching our fish supplier to Blue Harbour Fish Co." (both stayed current: "comes from" and
# "uses"). The group's, as a shop's stock is.
_FIRM = r"(?P<firm>[A-Z][\w'’-]*(?:\s+(?:&\s+)?(?:Co\.|[A-Z][\w'’-]*))*)"
# A switch to a firm, said from the one before or not ("switched ... from Harbour Lettings to ...").
_SWITCHED = r"\b(?i:switch|switching|switched|change|changing|changed|moving|moved)\s+"  # ("We switch our")
_TO_FIRM = rf"(?:(?i:from)\s+[A-Z][^,;.]*?\s+)?(?i:to|over\s+to)\s+{_FIRM}"
_GOODS = r"(?P<goods>[a-z][\w-]*(?:\s+(?!now\b)[a-z][\w-]*)?)"  # ("Our veg now comes from": veg's)
_SUPPLIED = [
    re.compile(rf"\b(?i:our|my|the|all\s+our|all\s+the)\s+{_GOODS}\s+(?i:now\s+)?"
               rf"(?i:comes?|is\s+coming|are\s+coming)\s+(?i:now\s+)?from\s+{_FIRM}"),
    re.compile(rf"(?<![\w'])(?i:we|I)\s+(?:(?i:now|'ll|will|'re\s+going\s+to)\s+)?"
               r"(?i:get|buy|order|source|hire|rent)\s+"
               rf"(?i:our|my|the|all\s+our)\s+{_GOODS}\s+from\s+{_FIRM}"),
    re.compile(rf"{_SWITCHED}(?:(?i:our|my|the)\s+)?{_GOODS}\s+(?i:supplier|suppliers|supply)\s+{_TO_FIRM}"),
    re.compile(rf"\b(?i:our|my|the)\s+(?:(?i:new)\s+)?{_GOODS}\s+(?i:supplier)\s+(?i:is|will\s+be)\s+"
               rf"(?:(?i:now)\s+)?{_FIRM}"),
]


# A service one firm provides at a time, whose it is said or not: "Their backups currently go to
# Carbonite", then "we're switching Harlow & Finch backups from Carbonite to Backblaze B2" (a "said"
# fact each: Carbonite stayed current); "our broadband is with BT".
_SERVICES = (r"(?P<goods>(?i:backups?|broadband|internet|insurance|energy|electricity|gas|hosting|e-?mail|domains?|"
             r"payroll|banking|pension|phone\s+contract|mobile\s+contract|web\s+hosting|cloud\s+storage))")
_WHOSE_SERVICE = (r"(?:(?P<whose>(?i:our|my|the|their|his|her)|"
                  r"[A-Z][\w'’&-]*(?:\s+(?:&\s+)?[A-Z][\w'’-]*)*?(?:['’]s)?)\s+)?")  # ("Harlow & Finch backups")
_SERVED = [
    re.compile(rf"{_WHOSE_SERVICE}{_SERVICES}\s+(?:(?i:now|currently|all|still)\s+)*"
               rf"(?i:go(?:es)?\s+to|(?:is|are)\s+(?:(?i:now|currently|still)\s+)?(?:with|on|through|at)|"
               rf"runs?\s+(?:on|through)|sits?\s+(?:on|with))\s+{_FIRM}"),
    re.compile(rf"{_SWITCHED}{_WHOSE_SERVICE}{_SERVICES}\s+{_TO_FIRM}"),
]


_SERVICE_OF = {"backups": "backup", "domains": "domain", "e-mail": "email"}


def _services(v: _Values) -> None:
    for rx in _SERVED:
        for m in rx.finditer(v.text):
            firm, said = m.group("firm").rstrip(" .&"), m.group("whose")
            if firm.split()[0].lower() in lx.STOPWORDS | lx.DATE_WORDS:
                continue
            goods = " ".join(m.group("goods").lower().split())
            goods = _SERVICE_OF.get(goods, goods)
            owner = re.sub(r"['’]s$", "", said) if said else None
            whose = None if owner is None or owner.lower() in ("our", "my", "the") else v.owner(owner, m.start())
            v.add(whose, f"{goods} provider", firm, m.start(), end=m.end())


# ... with its price said beside it ("Our flour comes from Millbrook Mills, £18.50 a sack"), or the
# price said of what a firm supplies ("butter is from Pennine Dairy, £4.10 a block", "Flour from
# Marriage's is £18.50 a sack"): the goods' price, which "butter went up to £4.60" changes.
_PRICE = r"(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)(?![\d,.]\d)"
_PER = re.compile(r"[^,;.!?()\x00]*")
_PRICE_AFTER = re.compile(rf"\s*,\s*(?:(?i:at|now)\s+)?{_PRICE}")
_PRICED_START = r"(?:^(?:(?i:and|so|also|plus)\s+)?|[,;:]\s+|\b(?i:and|so)\s+)(?:(?i:our|my|the)\s+)?"
_PRICED_GOODS = r"(?P<goods>(?i:[a-z])[a-z-]*(?:\s+(?!now\b)[a-z][\w-]*)?)"  # (the sentence's first word: "Flour")
_FROM_PRICED = [
    re.compile(rf"{_PRICED_START}{_PRICED_GOODS}\s+(?i:is|are|comes?)\s+from\s+{_FIRM}"
               rf"(?=\s*,\s*(?:(?i:at|now)\s+)?[£$€]\s?\d)"),
    re.compile(rf"{_PRICED_START}{_PRICED_GOODS}\s+from\s+{_FIRM}\s+(?i:is|are|costs?)\s+(?:(?i:now)\s+)?{_PRICE}"),
]


def _suppliers(v: _Values) -> None:
    for rx in [*_SUPPLIED, *_FROM_PRICED]:
        for m in rx.finditer(v.text):
            goods, firm = m.group("goods").lower(), m.group("firm").rstrip(" .&")
            if goods.split()[0] in lx.STOPWORDS or firm.split()[0].lower() in lx.STOPWORDS | lx.DATE_WORDS:
                continue
            v.add(None, f"{goods} supplier", firm, m.start(), end=m.end())
            if m.groupdict().get("num"):  # "Flour from Marriage's is £18.50 a sack": one clause
                v.add(None, goods, m.group("num").replace(" ", ""), m.start(), end=m.end())
            elif (priced := _PRICE_AFTER.match(v.text, m.end())) is not None:
                # "Our flour comes from Millbrook Mills, £18.50 a sack": the price a clause of its
                # own, told of the goods (the supplier's fact without it, so that it does not keep
                # the old price current when the price changes)
                per = _PER.match(v.text, priced.end()).group().strip()
                num = priced.group("num").replace(" ", "")
                v.add(None, goods, num, priced.start(), end=priced.end(),
                      text=f"{goods[:1].upper()}{goods[1:]} is {num}{' ' + per if per else ''}.")


# A household's or a business's tradespeople, one firm each at a time: "We're done with Quickfix
# Plumbing, Dale's Plumbing does our jobs now", "We switched letting agents from Harbour Lettings to
# Keyhouse Lettings", "We use Sparks Electrical now". The trade is said, or is the firm's own word;
# the group's, as "Our plumber is ..." is (parse._holder).
_FIRM_TRADES = {"plumbing": "plumber", "plumbers": "plumber", "electrical": "electrician",
                "electrics": "electrician", "electricians": "electrician", "builders": "builder",
                "building": "builder", "cleaning": "cleaner", "cleaners": "cleaner", "gardening": "gardener",
                "landscaping": "gardener", "locksmiths": "locksmith", "roofing": "roofer",
                "decorating": "decorator", "decorators": "decorator", "lettings": "agent", "letting": "agent",
                "solicitors": "solicitor", "accountants": "accountant", "vans": "van supplier",
                "van": "van supplier"}
_SAID_TRADE = (r"(?P<trade>(?i:(?:letting\s+|estate\s+)?agents?|plumbers?|electricians?|builders?|cleaners?|"
               r"gardeners?|locksmiths?|decorators?|roofers?|solicitors?|accountants?|mechanics?|brokers?))")
_NOW = r"(?i:now|instead|from\s+now\s+on|going\s+forward)\b"
_TRADES = (
    re.compile(rf"{_FIRM}\s+(?i:does|do|will\s+do|is\s+doing|handles|will\s+handle|takes\s+care\s+of|takes\s+over|"
               r"is\s+taking\s+over|will\s+take\s+over|took\s+over)\s+"
               r"(?:(?i:managing|running|the\s+management\s+of)\s+)?(?i:all\s+)?(?i:our|my|the|both)\s+"
               rf"[a-z]+(?:\s+[a-z]+)?(?:\s+{_NOW}|(?=\s+(?:(?i:from)\b|\x00)))"),
    # (... "let's use Nadia from now on for everything plumbing and gas": the trade said after)
    re.compile(rf"(?<![\w'])(?i:we|I|let['’]s)(?:'re|\s+are|'m|\s+am|'ll|\s+will|'ve|\s+have)?\s+(?:(?i:now)\s+)?"
               rf"(?i:use|using|going\s+with|go\s+with|switching\s+to|switched\s+to|moving\s+to|moved\s+to|"
               rf"hired|hiring|hire\s+from|rent\s+from)\s+{_FIRM}(?:\s+(?i:in|at)\s+[A-Z][\w-]*)?\s+{_NOW}"
               r"(?:\s+(?i:for)\s+(?:(?i:everything|all|any|our|the)\s+)*(?P<work>[a-z]+)\b)?"),
    re.compile(rf"{_SWITCHED}{_SAID_TRADE}\s+{_TO_FIRM}"),
)


_NO_LONGER_OUR = re.compile(rf"\b(?i:no\s+longer|not)\s+(?i:our|my|the)\s+{_SAID_TRADE}\b")


def _trades(v: _Values) -> None:
    for rx in _TRADES:
        for m in rx.finditer(v.text):
            firm = m.group("firm").rstrip(" .&")
            if firm.split()[0].lower() in lx.STOPWORDS | lx.DATE_WORDS | lx.PRONOUNS:
                continue
            said = m.groupdict().get("trade")
            if said:
                trade = said.lower().split()[-1].rstrip("s")
            else:  # the firm's own word ("Dale's Plumbing": a plumber), or the work said for it
                trade = next((_FIRM_TRADES[w] for w in [*firm.lower().split(), (m.groupdict().get("work") or "")]
                              if w in _FIRM_TRADES), None)
            if not trade and (was := _NO_LONGER_OUR.search(v.sent.t.turn.content)) is not None:
                # ("Kowalski Builds are no longer our builder. We've hired Harlow & Sons instead")
                trade = was.group("trade").lower().split()[-1].rstrip("s")
            if trade:
                v.add(None, trade, firm, m.start(), end=m.end())


# A purchase's agreed price and a mortgage offer, the group's, one at a time: "The seller accepted
# £437,500 for Flat 12", then "agreed to reduce the price to £435,000"; "Nationwide gave us a
# mortgage offer of £395,000 at 4.45%", then "the lender reissued the offer: £380,000 at 4.85%".
_MONEY = r"(?P<num>[£$€]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m)\b)?(?:\s+at\s+\d+(?:\.\d+)?\s?%)?)"
_DEALS = (
    (re.compile(rf"\b(?i:seller|sellers|vendor|vendors|owner|owners|they)\s+(?:(?i:has|have)\s+)?(?i:accepted)\s+"
                rf"(?:(?i:our|my|the)\s+(?i:offer)\s+(?:(?i:of)\s+)?)?{_MONEY}"), "agreed price"),
    (re.compile(rf"\b(?i:agreed|agree|agreeing)\s+(?:(?i:to)\s+)?(?i:reduce|lower|drop|cut|knock)\s+"
                rf"(?:(?i:the)\s+)?(?i:price)\s+(?:(?i:down)\s+)?(?i:to)\s+{_MONEY}"), "agreed price"),
    (re.compile(rf"\b(?i:mortgage)\s+(?i:offer)\s+(?:(?i:of|for)\s+)?{_MONEY}"), "mortgage offer"),
    (re.compile(rf"\b(?i:lender|bank|broker)\b[^.;!?]{{0,40}}?\b(?i:offer)\s*(?::|(?i:to|is|of)\s)\s*{_MONEY}"),
     "mortgage offer"),
)


def _deals(v: _Values) -> None:
    for rx, attr in _DEALS:
        for m in rx.finditer(v.text):
            v.add(None, attr, " ".join(m.group("num").split()), m.start(), end=m.end())


# An event's vendors, the group's, one each at a time: "We're going with Bella Tavola for
# catering", then "We switched caterers to Harvest & Vine Catering" (two keys, "catering" and
# "caterers", both current); "Our photographer is Zed Studio".
_ROLES = {"caterer": "catering", "caterers": "catering", "catering": "catering", "photographer": "photographer",
          "photographers": "photographer", "photography": "photographer", "florist": "florist",
          "florists": "florist", "band": "band", "bands": "band", "dj": "dj", "djs": "dj", "venue": "venue",
          "venues": "venue", "planner": "planner", "baker": "baker", "videographer": "videographer",
          "officiant": "officiant", "flowers": "florist", "photos": "photographer", "food": "catering",
          "cake": "baker"}
_ROLE = rf"(?P<role>(?i:{'|'.join(sorted(_ROLES, key=len, reverse=True))}))"
_VENDORS = (
    re.compile(rf"\b(?i:our|my|the)\s+(?:(?i:new)\s+)?{_ROLE}\s+(?i:is|will\s+be)\s+(?:(?i:now)\s+)?"
               rf"(?:(?i:the)\s+)?{_FIRM}"),  # ("Our venue is the Old Mill")
    re.compile(rf"\b(?i:going|went|go)\s+with\s+{_FIRM}\s+(?i:for|as)\s+(?:(?i:the|our)\s+)?{_ROLE}\b"),
    re.compile(rf"\b(?i:switched|switching|changed|changing|moved|moving)\s+{_ROLE}\s+(?i:to)\s+{_FIRM}"),
    re.compile(rf"\b(?i:booked|hired|chose|picked)\s+(?:(?i:the|our)\s+)?{_ROLE}\s*:\s*{_FIRM}"),
    # "I booked a band, The Blue Notes, and paid ...", "We've hired Zed Studio as our photographer"
    re.compile(rf"\b(?i:booked|hired|chose|picked|found)\s+(?i:a|an|the|our)\s+(?:(?i:new)\s+)?{_ROLE}\s*,\s*"
               rf"(?:(?i:called|named)\s+)?{_FIRM}"),
    re.compile(rf"\b(?i:booked|hired|chose|picked)\s+{_FIRM}\s+(?i:as|for)\s+(?:(?i:the|our|my)\s+)?{_ROLE}\b"),
    # "so Leila is our caterer now" (after "I rang Silver Spoon Catering": a fact of Leila's, no caterer held)
    re.compile(rf"(?:^|[,;:]\s+|\b(?i:so|and|then)\s+)(?!(?i:it|this|that|he|she|they|we|i|you|there|here|what|which|"
               rf"who|the|our|my)\b){_FIRM}\s+(?i:is|are|'s|will\s+be)\s+(?:(?i:now)\s+)?"
               rf"(?i:our|the)\s+(?:(?i:new)\s+)?{_ROLE}\b"),
    # "Wild Bloom Studio is doing our flowers now" (after "Our florist is Petal & Stem")
    re.compile(rf"{_FIRM}\s+(?i:is|are|'s|will\s+be)\s+(?:(?i:now)\s+)?"
               rf"(?i:doing|handling|providing|taking\s+care\s+of)\s+(?:(?i:our|the|my)\s+)?{_ROLE}\b"),
)
# How many guests, the group's: "We think about 150 guests", "we're up to 132 guests" (and "Final
# numbers: 104", _SAME; each a fact of its own, all current).
_GUESTS = (
    re.compile(r"(?<![\w'])(?i:we're|we\s+are|we'll\s+be|we\s+think|we\s+expect|we're\s+expecting|we\s+have|"
               r"we've\s+got)\s+(?:(?i:at|up\s+to|down\s+to|about|around|roughly|expecting|now)\s+)*"
               r"(?P<num>\d{1,4})\s+(?i:guests|people)\b"),
    # ... said with no verb ("About 80 guests for now, family and close friends", "her party is
    # growing: now 42 guests instead of 30"), or after the guest list's news in the same sentence
    # ("the guest list grew, we're at 96 now")
    re.compile(r"(?:^|:\s+)(?:(?i:so|and|now|ok|okay)[,]?\s+)?"
               r"(?:(?i:about|around|roughly|maybe|probably|just\s+over|"
               r"just\s+under|over|under)\s+)?(?P<num>\d{1,4})\s+(?i:guests)\b(?!\s+(?i:is|are|was|were|have|has|"
               r"had|will|said|came|left|arrived)\b)"),
    re.compile(r"\b(?i:guest\s+list|guest\s+count|rsvps?)\b[^.;!?]{0,40}?\b(?i:we're|we\s+are)\s+(?:(?i:now)\s+)?"
               r"(?i:at|up\s+to|down\s+to)\s+(?P<num>\d{1,4})\b(?!\s*(?:%|(?i:am|pm)\b|[:.]\d))"),
)
# ... or as a number alone in a turn about who is coming ("RSVPs are mostly in. a few can't make it ... we're
# down to 48": it had been no fact, the 55 before it the answer).
_AT_NUMBER = re.compile(r"(?<![\w'])(?i:we're|we\s+are)\s+(?:(?i:now)\s+)?(?i:at|up\s+to|down\s+to)\s+(?P<num>\d{1,4})\b"
                        r"(?!\s*(?:%|(?i:am|pm)\b|[:.,]\d|[a-zA-Z£$€]))")
_GUEST_TALK = re.compile(r"\b(?:rsvps?|guests?|guest\s+list|invites?|invitations?)\b", re.I)
# ... and said after a label, which the sentence's text has lost ("Update on guests: we're at 120 now").
_GUESTS_LABEL = re.compile(r"^(?:(?i:update\s+on|re)\s+)?(?:(?i:the)\s+)?"
                           r"(?i:guests?(?:\s+(?:list|count|numbers?))?)\s*:\s*(?i:we're|we\s+are)\s+"
                           r"(?:(?i:now)\s+)?(?i:at|up\s+to|down\s+to)\s+"
                           r"(?P<num>\d{1,4})\b(?!\s*(?:%|(?i:am|pm)\b|[:.]\d))")
# Where a honeymoon or a holiday goes, one place at a time: "For the honeymoon we're thinking Bali",
# then "we're going to Portugal instead of Bali".
_DESTINATION = re.compile(
    r"\b(?P<trip>(?i:honeymoon|holiday|vacation))\b[^.;!?]{0,30}?\b(?i:going\s+to|thinking|heading\s+to|off\s+to|"
    r"flying\s+to|booked)\s+(?P<place>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)")


# Where someone stays, one place at a time: "I booked the Hotel Avenida Palace", "so I'm now at the
# Lisbon Marriott" (each was a fact "booked" of its own, all current).
_STAY_WORDS = (r"(?:Hotel|Inn|Hostel|Marriott|Hilton|Hyatt|Ibis|Novotel|Sheraton|Radisson|Airbnb|Lodge|Suites|"
               r"Resort)")
_STAY = re.compile(
    r"(?<![\w'])(?P<who>I|we)(?:'ve|\s+have|'m|\s+am|'re|\s+are)?\s+(?:(?i:now|just|also)\s+)?"
    r"(?i:booked|reserved|staying\s+at|moved\s+to|at)\s+(?:(?i:the|a|an)\s+)?"
    rf"(?P<firm>(?:[A-Z][\w'’-]*\s+){{0,3}}{_STAY_WORDS}(?:\s+[A-Z][\w'’-]*){{0,3}})")
# A vendor booked in place of the one before ("I cancelled the Hotel Avenida Palace. I've booked
# Memmo Alfama instead", "We booked Satin Strings instead"): the role of the value said last.
_INSTEAD = re.compile(rf"\b(?i:booked|hired|chose|picked|found|got|went\s+with|going\s+with|using|use)\s+"
                      rf"(?:(?i:the)\s+)?{_FIRM}\s+(?i:instead)\b")
_BOOKED_ROLES = frozenset({*_ROLES.values(), *lx.TRADES, "hotel"})


def _stays(v: _Values) -> None:
    for m in _STAY.finditer(v.text):
        v.add(v.speaker if m.group("who").lower() == "i" else None, "hotel", m.group("firm").rstrip(" .,"),
              m.start(), end=m.end())
    for m in _INSTEAD.finditer(v.text):
        last = next((p for p in reversed([*v.before, *v.out]) if
                     (p.subject if p.predicate == "is" else p.predicate[:-3]) in _BOOKED_ROLES), None)
        firm = m.group("firm").rstrip(" .&")
        if last is not None and firm.split()[0].lower() not in lx.STOPWORDS and firm != last.obj:
            if last.predicate == "is":
                v.add(None, last.subject, firm, m.start(), end=m.end())
            else:
                v.add(last.subject, last.predicate[:-3], firm, m.start(), end=m.end())


def _events(v: _Values) -> None:
    start_times(v)
    entry_counts(v)
    for rx in _VENDORS:
        for m in rx.finditer(v.text):
            v.add(None, _ROLES[m.group("role").lower()], m.group("firm").rstrip(" .&"), m.start(), end=m.end())
    for rx in _GUESTS:
        for m in rx.finditer(v.text):
            v.add(None, "guest count", f"{m.group('num')} guests", m.start(), end=m.end())
    if not any(p.subject == "guest count" for p in v.out) and (m := _AT_NUMBER.search(v.text)) is not None \
            and _GUEST_TALK.search(str(v.sent.t.turn.content or "")):
        # (its words say what it counts: "Tom said we're down to 48." ranked 27th for "How many guests now?")
        v.add(None, "guest count", f"{m.group('num')} guests", m.start(), end=m.end(),
              text=f"{v.speaker} said the guest count is now {m.group('num')} guests "
                   f"({m.group(0)[:1].lower()}{m.group(0)[1:]})")
    if (m := _GUESTS_LABEL.match(v.sent.raw.strip())) is not None:
        v.add(None, "guest count", f"{m.group('num')} guests", 0,  # (its words are the label's too)
              text=f"{v.speaker} said the guest count is now {m.group('num')} guests")
    for m in _DESTINATION.finditer(v.text):
        v.add(None, f"{m.group('trip').lower()} destination", m.group("place"), m.start(), end=m.end())


# Someone named as the new holder of a post, the speaker's ("My head of department is Mr David
# Okoro", then "Dr Sarah Lin is the new head of department from 2 November", "Mr Tom Fischer is
# acting head of department from this week": each stayed current beside the first).
_NEW_HOLDER = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so)\s+)"
    r"(?P<who>(?:(?i:mr|mrs|ms|miss|dr|prof)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"
    r"\s+(?i:is|'s|will\s+be|becomes)\s+(?:(?i:now)\s+)?(?:(?i:the|our|my)\s+)?(?i:new|acting|interim)\s+"
    r"(?P<role>[a-z]+(?:\s+of\s+[a-z]+|\s+[a-z]+)?)(?=\s*(?:[,;.!?\x00]|$|\s+(?i:from|starting|as\s+of|now)\b))")


# ... or by "he" or "she", starting in it: "Dr Anita Sharma is coming from Ashcombe Academy. She starts as head of
# department on Monday 2 November" (the speaker's, as "the new head of department" is; from the day she starts).
_NEW_HOLDER_SHE = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?i:she|he)\s+(?i:starts|is\s+starting|will\s+start|'s\s+starting)\s+as\s+"
    r"(?:(?i:the|our|my)\s+)?(?:(?i:new|acting|interim)\s+)?"
    r"(?P<role>[a-z]+(?:\s+of\s+[a-z]+|\s+[a-z]+)?)(?=\s*(?:[,;.!?\x00]|$|\s+(?i:from|starting|as\s+of|now|on)\b))")


_STARTS_ON = re.compile(r"\s+(?i:on|from)\s+(?:(?i:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?\x00\d+\x00")


# What a class is studying, one topic at a time: "This half term 9C is studying cells and
# organisation", then "from today 9C is on chemical reactions", "now we're covering acids".
_TOPIC = re.compile(
    r"(?P<who>\b\d{1,2}[A-Z]\b|(?<![\w'])(?i:we|the\s+class|my\s+class|our\s+class))\s+(?:(?i:is|are)|'re)\s+"
    r"(?:(?i:now|currently|still)\s+)?(?:(?i:studying|covering|learning|doing|working\s+on)|(?<=\d[A-Z] is )on)\s+"
    r"(?P<topic>[a-z][a-z -]{2,40}?)(?=\s*(?:[,;.!?\x00]|$|\s+(?i:until|till|this|for|from|now|next)\b))")


# ... and what someone's thesis or project is on: "His thesis is on graph neural networks for
# traffic forecasting", then "His thesis is now on causal discovery in climate data" (both were
# "said" facts of the supervisor's, "his" unread).
_WORK_TOPIC = re.compile(
    rf"(?P<whose>(?i:my|his|her|their)|{_NAME}['’]s)\s+(?P<what>(?i:thesis|dissertation|phd|project|research|"
    r"paper|essay|coursework))(?:\s+(?i:topic|subject))?\s+(?i:is|'s|will\s+be)\s+(?:(?i:now|still)\s+)?"
    r"(?:(?i:on|about|into)\s+)?(?P<topic>[a-z][\w -]{2,60}?)(?=\s*(?:[,;.!?\x00]|$|\s+(?i:now|from|instead)\b))")


def _topics(v: _Values) -> None:
    for m in _TOPIC.finditer(v.text):
        who = m.group("who")
        whose = who if who[0].isdigit() else v.speaker  # ("we", "my class": the teacher's)
        v.add(whose, "topic", m.group("topic").strip(), m.start(), end=m.end())
    for m in _WORK_TOPIC.finditer(v.text):
        whose = v.owner(re.sub(r"['’]s$", "", m.group("whose")), m.start())
        if whose and m.group("topic").split()[0] not in lx.STOPWORDS | {"due", "late", "done", "finished", "going"}:
            what, topic = m.group("what").lower(), m.group("topic").strip()
            pronoun = m.group("whose").lower() in ("my", "his", "her", "their")
            v.add(whose, f"{what} topic", topic, m.start(), end=m.end(),  # ("His thesis is ...": whose)
                  text=f"{whose}'s {what} is on {topic}." if pronoun else None)


# A team's posts, the team's, one holder at a time, "new" or not: "Leo is captain for October",
# "Amara is our captain for November", "Sam Hill is my assistant coach", then "Priya Desai is our
# new assistant coach from this week" (each stayed current; "Sam Hill" was read as a place).
_TEAM_ROLES = (r"captain|vice-captain|vice\s+captain|assistant\s+coach|head\s+coach|goalkeeper|hygienist|"
               r"receptionist|practice\s+nurse|dental\s+nurse|drummer|bassist|guitarist|keyboardist|singer|"
               r"sound\s+engineer|tour\s+manager|driver|"
               # a kitchen's or a shop's ("Bea Lindqvist is my sous-chef", then "Ravi Menon is our new sous-chef")
               r"sous-chef|sous\s+chef|head\s+chef|pastry\s+chef|chef\s+de\s+partie|kitchen\s+porter|"
               r"restaurant\s+manager|front\s+of\s+house\s+manager|shop\s+manager|store\s+manager|"
               r"office\s+manager|bookkeeper|"
               # a wedding's ("My brother Davide is my best man now", after Luca)
               r"best\s+man|maid\s+of\s+honou?r|matron\s+of\s+honou?r|officiant|celebrant|ring\s+bearer|"
               # a household's pets' ("Priya Nair is our new dog walker", after Jake) and a club's
               r"dog\s+walker|dog\s+sitter|pet\s+sitter|cat\s+sitter|house\s+sitter|groomer|dog\s+groomer|"
               r"treasurer|club\s+secretary|welfare\s+officer|kit\s+manager|team\s+manager|"
               # a society's committee's ("Aisha Rahman was voted in as treasurer", after Brian Cole)
               r"secretary|chair|chairperson|vice-chair|membership\s+secretary|site\s+rep|beekeeper|"
               # a shop's ("Megan Doyle is our Saturday assistant", then "Tom Briggs is taking over as
               # Saturday assistant")
               r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend)\s+(?:assistant|staff|helper|cover)|"
               r"baker|head\s+baker|barista|"
               # a choir's, a photographer's, a school's ("our accompanist is Jonathan Pike", "Marcus is our
               # second shooter", "Mrs Patel is the new deputy head")
               r"accompanist|conductor|musical\s+director|organist|pianist|choirmaster|second\s+shooter|"
               r"videographer|deputy\s+head|head\s+of\s+year|caretaker|"
               # ("Ms Joanna Patel is acting head of sixth form now", after Mr Graham Collins)
               r"head\s+of\s+sixth\s+form|head\s+teacher|headteacher|form\s+tutor|"
               r"(?:personal\s+statement\s+|maths\s+|english\s+|science\s+)?tutor|"
               # a show's ("Ruby Chen will be the new understudy")
               r"understudy|stage\s+manager|choreographer|lighting\s+designer|"
               r"set\s+designer|costume\s+designer|chaperone|prompter|"
               # a lab's, a department's, a ward's ("Gillian Moss is the lab manager", then "Tom Beckett takes over
               # as lab manager")
               r"lab\s+manager|lab\s+technician|technician|safety\s+officer|graduate\s+administrator|"
               r"department\s+administrator|practice\s+manager|ward\s+manager|site\s+manager|"
               r"facilities\s+manager|programme\s+director|course\s+director|course\s+leader|"
               r"module\s+leader|placement\s+coordinator|nurse\s+in\s+charge|"
               r"(?:second|third|internal|external)\s+supervisor|(?:internal|external)\s+examiner|"
               # an event's marshals ("Linda Moss is head marshal now")
               r"head\s+marshal|marshal\s+lead|first\s+aider")
_TEAM_HOLDER = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so)\s+|\.\s+)(?:(?i:ok|okay|right|then|fine)[,!]?\s+)?"  # ("ok Alfie is our keeper")
    r"(?:(?i:my|our|his|her)\s+[a-z]+\s+)?"  # ("My cousin Luca Moretti is")
    r"(?P<who>(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof|Professor)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
    r"(?:\s+(?i:on|from)\s+(?i:plot|flat|number|no\.?)\s+\d+[a-z]?)?"  # ("Nadia Kowalski on plot 22 has agreed ...")
    r"\s+(?i:is|'s|will\s+be|becomes|starts\s+as|is\s+starting\s+as|joins\s+as|is\s+joining\s+as|"
    r"is\s+going\s+to\s+be|'s\s+going\s+to\s+be|"
    # ("has agreed to be co-opted as secretary until the AGM")
    r"(?:has\s+|have\s+)?agreed\s+to\s+(?:be\s+(?:co-opted|appointed|elected|made)\s+as|be|stand\s+in\s+as|"
    r"take\s+over\s+as)|"
    # elected or appointed to it, or taking it over
    r"(?:was|has\s+been|got|is|'s\s+been)\s+(?:voted\s+in|elected|appointed|made|named|chosen|co-opted)(?:\s+as)?|"
    r"(?:takes|took|is\s+taking|has\s+taken)\s+over\s+as|stepped\s+in\s+as|steps\s+in\s+as)\s+"
    r"(?:(?i:now)\s+)?(?:(?i:the|our|my|team)\s+)?(?:(?i:new)\s+)?(?:(?i:acting|interim)\s+)?"
    rf"(?P<role>(?i:{_TEAM_ROLES}))\b(?P<when>,?\s+(?:(?i:for|from|starting)\s+)?\x00(?P<d>\d+)\x00)?")
# ... or set off after the name: "Luis our kitchen porter works Tuesday to Saturday", "Ana, our stage
# manager, has the keys".
_TEAM_HOLDER_SET_OFF = re.compile(
    r"^(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*,?\s+(?i:our|my)\s+(?:(?i:new)\s+)?"
    rf"(?P<role>(?i:{_TEAM_ROLES}))\b(?!['’])")
# ... said the other way round: "Our hygienist is Sophie Bell", "Our new drummer is Remy Costa".
_TEAM_ROLE_FIRST = re.compile(
    # (its article left out to begin with: "External examiner will be Professor Ingrid Larsen from Uppsala")
    rf"(?:(?:^|[,;:]\s+|\b(?:and|so)\s+)(?i:our|the|my)\s+|^)(?:(?i:new)\s+)?(?:(?i:acting|interim)\s+)?"
    rf"(?P<role>(?i:{_TEAM_ROLES}))\s+"
    r"(?i:is|'s|will\s+be)\s+(?:(?i:now)\s+)?"
    r"(?P<who>(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof|Professor)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)")  # ("... is Ms Priya Nair")


# ... or found, named after it: "We've found a personal statement tutor, Hannah Okafor", "we hired a new
# dog walker: Priya Nair" (a "said" fact: no tutor held).
_FOUND_HOLDER = re.compile(
    r"\b(?i:found|hired|got|booked|chose|picked|appointed|taken\s+on|took\s+on)\s+(?i:a|an|our|a\s+new|the)\s+"
    rf"(?P<role>(?i:{_TEAM_ROLES}))\s*[,:-]\s*(?P<who>(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?[A-Z][\w'-]*"
    r"(?:\s+[A-Z][\w'-]*)?)")
# ... or by the doing: "Karen Oakes from choir is going to dog-sit instead" (after Linda's offer).
_SITS = {"dog-sit": "dog sitter", "dogsit": "dog sitter", "pet-sit": "pet sitter", "petsit": "pet sitter",
         "cat-sit": "cat sitter", "house-sit": "house sitter", "housesit": "house sitter", "babysit": "babysitter"}
_SITTING = re.compile(
    r"(?P<who>(?:(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
    r"(?:\s+(?i:from|next\s+door|at)(?:\s+[\w'-]+){0,2})?"  # ("Karen Oakes from choir")
    r"\s+(?i:is\s+going\s+to|will|'ll|can|is\s+happy\s+to|has\s+offered\s+to|offered\s+to)\s+"
    rf"(?P<role>(?i:{'|'.join(_SITS)}))\b")
# ... or handed over: "Mark Hensley has stepped down as treasurer, Priya Shah takes over" (one "said"
# fact: Mark stayed the treasurer).
_HANDED_OVER = re.compile(
    r"\b(?:has\s+)?(?i:stepped\s+down|resigned|retired|left|quit)\s+as\s+(?:(?i:our|the)\s+)?"
    rf"(?P<role>(?i:{_TEAM_ROLES}))\b\s*[,;.]?\s*(?:(?i:and|so)\s+)?"
    r"(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s+(?i:takes|is\s+taking|will\s+take|has\s+taken|took)\s+over\b")


# ... or one person put in another's place, whatever the post: "Carla Nguyen replaces Dr Ochoa as our
# contact at Brightsmile" (a "said" fact: Dr Ochoa stayed the contact). The writer hands the replaced one's
# posts on (construction/replacements.py), as for "his replacement is Priya Nair".
_TITLED = r"(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?"
_REPLACES = re.compile(
    rf"(?P<new>{_TITLED})\s+(?i:replaces|is\s+replacing|has\s+replaced|will\s+replace|takes\s+over\s+from|"
    rf"is\s+taking\s+over\s+from|took\s+over\s+from|has\s+taken\s+over\s+from)\s+(?P<old>{_TITLED})\b")


# ... by "he" or "she", the person named before it: "We interviewed Tom Briggs this week and he's
# taking over as Saturday assistant".
_TEAM_HOLDER_SHE = re.compile(
    r"\b(?i:he|she)(?:'s|\s+is|\s+will\s+be|\s+was|\s+has\s+been)?\s+(?i:taking\s+over\s+as|takes\s+over\s+as|"
    r"going\s+to\s+be|(?:voted\s+in|elected|appointed|made|named)\s+as|joining\s+(?:us\s+)?as|starting\s+as|"
    r"starts\s+as|will\s+start\s+as|"
    # ("he's been our drummer since 2022", "she's our bassist")
    r"(?:now\s+)?our\s+new|(?:been\s+)?our)\s+(?:(?i:the|our)\s+)?(?:(?i:new)\s+)?"
    rf"(?P<role>(?i:{_TEAM_ROLES}))\b(?!['’])(?P<when>,?\s+(?:(?i:for|from|starting|on)\s+)?"
    r"(?:(?i:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?\x00(?P<d>\d+)\x00)?")


# ... or said in brackets after the name: "also Beverley Moss (lab technician) told me she works Mon, Wed and Fri" (the
# post had lived only in a fact of her days, which a change of days ended).
_POST_IN_BRACKETS = re.compile(
    r"(?P<who>(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*\(\s*(?:(?i:the|our|my)\s+)?"
    rf"(?P<role>(?i:{_TEAM_ROLES}))\s*\)")


def _new_holders(v: _Values) -> None:
    for m in _NEW_HOLDER.finditer(v.text):
        who, role = v.reg.get(m.group("who")), m.group("role").lower()
        if (who is not None and who.type == "person" and not who.speaker and role.split()[0] not in lx.STOPWORDS
                and not re.fullmatch(_TEAM_ROLES, role)):
            v.add(v.speaker, role, who.name, m.start(), end=m.end())
    for m in _NEW_HOLDER_SHE.finditer(v.text):
        named = v.named_first(m.start()) or v.recent
        who, role = (v.reg.get(named) if named else None), m.group("role").lower()
        if (who is not None and who.type == "person" and not who.speaker and role.split()[0] not in lx.STOPWORDS
                and not re.fullmatch(_TEAM_ROLES, role)):
            v.add(v.speaker, role, who.name, m.start(), end=m.end())
            if _STARTS_ON.match(v.text, m.end()) and v.out and v.out[-1].obj == who.name:
                v.out[-1].said_now, v.out[-1].from_day = False, True  # (from the day she starts)
    for m in [*_TEAM_HOLDER.finditer(v.text), *_TEAM_ROLE_FIRST.finditer(v.text), *_TEAM_HOLDER_SET_OFF.finditer(v.text),
              *_HANDED_OVER.finditer(v.text), *_FOUND_HOLDER.finditer(v.text), *_POST_IN_BRACKETS.finditer(v.text)]:
        who, role = v.reg.get(m.group("who")), " ".join(m.group("role").lower().split())
        if who is None or who.speaker or m.group("who").split()[0].lower() in lx.STOPWORDS | lx.PRONOUNS:
            continue
        if who.type in ("place", "thing"):
            who.settle("person")  # ("Sam Hill is my assistant coach": a person)
        if who.type != "person":
            continue
        if m.re is _POST_IN_BRACKETS:  # (told as what it says, not cut at the bracket: "... (lab technician) told Tom")
            v.add(None, role, who.name, m.start(), end=m.end(), text=f"{who.name} is the {role}.")
            continue
        _holds(v, m, who, role)
    for m in _REPLACES.finditer(v.text):
        new, old = v.reg.get(m.group("new")), v.reg.get(m.group("old"))
        if new is not None and old is not None and new is not old and {new.type, old.type} == {"person"} \
                and not new.speaker and not old.speaker:
            v.add(old.name, "replacement", new.name, m.start(), end=m.end(),
                  text=f"{old.name}'s replacement is {new.name}.")
    for m in _SITTING.finditer(v.text):
        who = v.reg.get(m.group("who"))
        if who is not None and who.type == "person" and not who.speaker:
            _holds(v, m, who, _SITS[m.group("role").lower()])
    for m in _TEAM_HOLDER_SHE.finditer(v.text):
        named = v.named_first(m.start()) or v.recent  # (the sentence's: "he" after it; else the one named last)
        who = v.reg.get(named) if named else None
        if who is not None and who.type == "person" and not who.speaker:
            _holds(v, m, who, " ".join(m.group("role").lower().split()))


def _holds(v: _Values, m: re.Match, who, role: str) -> None:
    """`who` holds the post `role` (from the day `m` says after it, if it does)."""
    v.add(None, role.replace("vice captain", "vice-captain"), who.name, m.start(), end=m.end())
    if m.groupdict().get("when") and v.out and v.out[-1].obj == who.name:
        v.out[-1].said_now, v.out[-1].from_day = False, True  # "captain for November": from then


# Who holds a numbered plot, pitch or locker, one at a time: "plot 7 is Irene Walsh, plot 9 is Gwen
# Price", "Plot 7 goes to the first person on the waiting list, Tomasz Nowak", "Hannah Lee from the
# waiting list is taking plot 7" (a list fact, a "goes to" fact and a "said" fact: all three current).
_NUMBERED = r"(?P<thing>(?i:plot|allotment|locker|pitch|stall|bay|berth|desk))\s+(?P<n>\d{1,3}[A-Za-z]?)\b"
_CAPS = r"(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?"  # a name of one or two capitalised words
_HOLDER_NAME = rf"(?P<who>{_CAPS})"
_NUMBERED_HOLDERS = (
    re.compile(rf"{_NUMBERED}\s+(?i:is|'s|goes\s+to|is\s+going\s+to|will\s+go\s+to|now\s+belongs\s+to|belongs\s+to|"
               rf"is\s+now)\s+(?:(?i:the\s+)?[a-z][^,.;:]{{0,50}},\s+)?(?:(?i:now)\s+)?{_HOLDER_NAME}"),
    re.compile(rf"{_HOLDER_NAME}(?:\s+(?i:from|off|on)\s+[^,.;:]{{0,30}}?)?\s+(?i:is\s+taking(?:\s+over)?|takes(?:\s+over)?|"
               rf"has\s+taken(?:\s+over)?|took(?:\s+over)?|is\s+getting|gets|got|has)\s+(?:(?i:on)\s+)?{_NUMBERED}"),
)


def _numbered_holders(v: _Values) -> None:
    for rx in _NUMBERED_HOLDERS:
        for m in rx.finditer(v.sent.text):
            who = v.reg.get(m.group("who"))
            if who is None or who.speaker or m.group("who").split()[0].lower() in lx.STOPWORDS | lx.PRONOUNS:
                continue
            if who.type in ("place", "thing"):
                who.settle("person")  # ("plot 7 is Irene Walsh": a person holds a plot)
            if who.type == "person":
                v.add(None, f"{m.group('thing').lower()} {m.group('n')} holder", who.name, v.sent.s1_pos(m.start()),
                      end=v.sent.s1_pos(m.end()))


# A band's line-up, a post per part: "Kai sings and Theo plays drums in the band", then "Remy's
# on drums now" (each had been a fact of its own: "Kai | sings | and Theo plays drums"). Only
# with a band's words in the sentence: "my son plays guitar" is a hobby, no post.
_PARTS = {"drums": "drummer", "bass": "bassist", "guitar": "guitarist", "lead guitar": "lead guitarist",
          "rhythm guitar": "rhythm guitarist", "keys": "keyboardist", "keyboards": "keyboardist",
          "piano": "keyboardist", "sax": "saxophonist", "saxophone": "saxophonist", "trumpet": "trumpeter",
          "violin": "violinist", "fiddle": "violinist", "vocals": "singer", "lead vocals": "singer"}
_PLAYS = re.compile(
    r"(?<![\w'-])(?P<who>[A-Z][\w-]*(?:'(?!s\b)\w+)?(?:\s+[A-Z][\w-]*)?)\s+(?:(?i:now|still)\s+)?"
    r"(?:(?i:plays|is\s+playing|will\s+play|'s\s+on|is\s+on|takes\s+over\s+on|does)\s+(?:(?i:the)\s+)?"
    rf"(?P<part>(?i:{'|'.join(sorted(_PARTS, key=len, reverse=True))}))|(?P<sings>(?i:sings)))\b")
_BAND_WORDS = re.compile(r"\b(?:band|line-?up|gigs?|rehearsals?|set\s?list|tour)\b", re.I)


def _line_up(v: _Values) -> None:
    if v.sent.t.assistant or not _BAND_WORDS.search(v.text):
        return
    for m in _PLAYS.finditer(v.text):
        who = v.reg.get(m.group("who"))
        if who is None or who.speaker or m.group("who").split()[0].lower() in lx.STOPWORDS | lx.PRONOUNS:
            continue
        if who.type in ("place", "thing"):
            who.settle("person")
        if who.type == "person":
            part = "singer" if m.group("sings") else _PARTS[" ".join(m.group("part").lower().split())]
            v.add(None, part, who.name, m.start("who"), end=m.end())


# Who is on call, one at a time: "Tom is on call this week", then "Actually no, correction: Hana
# is on call this week, Tom is on holiday" (both had stayed current, each with its plan).
_ON_CALL = re.compile(r"(?<![\w'-])(?P<who>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)(?:\s+(?i:is|will\s+be)|'s)\s+"
                      r"(?:(?i:now|also)\s+)?(?i:on[\s-]call)\b|"
                      r"\b(?i:on[\s-]call)\s+(?:(?i:this|next)\s+(?i:week|weekend)\s+|\x00\d+\x00\s+)?"
                      r"(?i:is|will\s+be)\s+"
                      r"(?P<who2>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)")


def _on_call(v: _Values) -> None:
    if v.sent.t.assistant:
        return  # ("So Priya is on call this week.": what it was told, said back)
    for m in _ON_CALL.finditer(v.text):
        said = m.group("who") or m.group("who2")
        who = v.reg.get(said)
        if who is not None and who.type == "person" and said.split()[0].lower() not in lx.STOPWORDS | lx.PRONOUNS:
            v.add(None, "on call", who.name, m.start(), end=m.end())


# Whose turn a duty of the group's is, for a period: "And driving in November is Mrs Okafor and the
# Browns", "Oranges this week are the Nguyens" (it had been "Grace is driving in November ...").
_DUTY = re.compile(r"^(?:(?i:and|so|also)\s+)?(?P<duty>(?i:driving|lifts|oranges|snacks|half-time\s+oranges|"
                   r"refreshments|kit\s+washing|washing|car-?pool|drop-?offs?|pick-?ups?|teas|cakes))\s+"
                   r"(?:(?i:in|on|for)\s+)?\x00\d+\x00\s+(?i:is|are|will\s+be)\s+"
                   r"(?P<who>(?:(?i:the)\s+)?[A-Z][^.;!?]{1,60}?)\s*[.!]?$")


def _duties(v: _Values) -> None:
    if (m := _DUTY.match(v.text)) is not None:
        duty = " ".join(m.group("duty").lower().split())
        v.add(None, f"{duty} rota", m.group("who"), 0, end=m.end())


# A rota's days, a person's at a time: "Water rota for the troughs: Yusuf does Tuesdays, Gwen does
# Thursdays", then "Yusuf is on Wednesdays from now on", "the water rota is now: Yusuf Saturdays,
# Gwen Wednesdays" (each a "said" fact: Tuesdays stayed Yusuf's).
_PLURAL_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days"
_DAYS_LIST = rf"{_PLURAL_DAYS}(?:\s*(?:,|&|and)\s*{_PLURAL_DAYS})*"  # ("Fridays and Saturdays")
_ROTA_WHO = rf"(?P<who>{_CAPS})"
_ROTA_DOES = re.compile(
    rf"(?:^|[,;:]\s+|\band\s+|\bso\s+){_ROTA_WHO}\s+(?:does|do|is\s+on|'s\s+on|takes|covers|has|will\s+do|"
    rf"is\s+doing|'s\s+doing|is\s+now\s+doing|'s\s+now\s+doing|is\s+now\s+on|'s\s+now\s+on)\s+(?:the\s+)?"
    rf"(?P<when>{_DAYS_LIST})\b", re.I)
# Days handed on: "Colin did Sundays on the water rota, Priya will take those over" (a "said" fact, and
# Colin's Sundays stayed current).
_ROTA_HANDED = re.compile(
    rf"(?:^|[,;:]\s+|\band\s+|\bso\s+){_ROTA_WHO}\s+(?:did|does|has\s+done|used\s+to\s+do|was\s+on|is\s+on|had)\s+"
    rf"(?:the\s+)?(?P<when>{_DAYS_LIST})\b[^,;.!?]{{0,40}}[,;]\s*"
    rf"(?:(?:but|and|so|now)\s+)?(?P<next>{_CAPS})\s+"
    r"(?:will|'ll|is\s+going\s+to|is|'s|has|)\s*(?:take|taking|taken|takes)\s+(?:those|them|that|it|these)\s+over\b",
    re.I)
_ROTA_TAKES_OVER = re.compile(  # "Priya is taking over Colin's Sundays"
    rf"(?P<next>{_CAPS})\s+(?:will|'ll|is|'s|has)?\s*(?:take|taking|taken|takes)\s+"
    rf"over\s+{_ROTA_WHO}['’]s\s+(?P<when>{_DAYS_LIST})\b", re.I)
# ... said of "he" or "she": "Tom can't do Sundays any more, he's on Fridays and Saturdays from now on"
_ROTA_HE_IS_ON = re.compile(
    rf"(?:^|[,;:]\s+|\band\s+|\bso\s+|\bbut\s+)(?P<who>he|she)(?:'s|\s+is)\s+(?:now\s+)?(?:only\s+)?on\s+(?:the\s+)?"
    rf"(?P<when>{_DAYS_LIST})\b", re.I)
_ROTA_LIST = re.compile(r"\brota\b[^:]{0,30}:\s*(?P<list>.+)$", re.I)
_ROTA_PAIR = re.compile(rf"{_ROTA_WHO}\s+(?P<when>{_PLURAL_DAYS})\b", re.I)


def _days(m: re.Match) -> str:
    """The days a match's "when" says, as a value: "fridays and saturdays" -> "Fridays and saturdays"."""
    when = " ".join(m.group("when").split())
    return when[:1].upper() + when[1:]


def _rota_days(v: _Values) -> None:
    text = v.sent.text
    if (m := _ROTA_HANDED.search(text) or _ROTA_TAKES_OVER.search(text)) is not None:
        was, now = v.reg.get(m.group("who")), v.reg.get(m.group("next"))
        if was is not None and now is not None and was.type == now.type == "person" and was is not now:
            when = _days(m)
            v.add(now.name, "rota days", when, m.start("next"), end=m.end(),
                  text=f"{now.name} is on the rota on {when}, taking them over from {was.name}.")
            v.add(was.name, "rota days", "none", m.start("who"), end=m.start("next"), ended=True,
                  text=f"{was.name} no longer does {when} on the rota ({now.name} takes them over).")
            return
    found = list(_ROTA_DOES.finditer(text))
    if (listed := _ROTA_LIST.search(text)) is not None and not found:
        found = list(_ROTA_PAIR.finditer(text, listed.start("list")))
    if not found and (m := _ROTA_HE_IS_ON.search(text)) is not None:
        whose = v.named_first(m.start()) or v.recent
        if whose is not None and whose != v.speaker:
            v.add(whose, "rota days", _days(m), m.start("who"), end=m.end())
    for m in found:
        who = v.reg.get(m.group("who"))
        if who is None or who.type != "person" or m.group("who").split()[0].lower() in lx.STOPWORDS:
            continue
        when = _days(m)
        # (a pair of a list is told in words: "Gwen Wednesdays" alone says little)
        said = f"{who.name} is on the rota on {when}." if m.re is _ROTA_PAIR else None
        v.add(who.name, "rota days", when, m.start("who"), end=m.end(), text=said)


def _rota(v: _Values) -> None:
    for rx, attr in ((_DAYS_OFF, "days off"), (_DAY_OFF_IS, "days off"), (_WORK_DAYS, "work days")):
        for m in rx.finditer(v.sent.text):
            said = m.groupdict().get("who") or re.sub(r"['’]s$", "", m.groupdict().get("whose") or "")
            if said.lower() in lx.STOPWORDS - {"i", "we", "my", "our", "his", "her", "he", "she"} | {"they"}:
                continue
            if said.lower() in ("his", "her", "he", "she"):  # "Marta works ... and her day off is Monday",
                # "Lena's schedule changes again, from this week she works Tuesday, Thursday and Friday evenings"
                whose = v.named_first(m.start()) or v.recent
            else:
                whose = v.owner(said, m.start()) if said.lower() not in ("we", "our") else v.speaker
            if whose:
                when = " ".join(m.group("when").split())
                v.add(whose, attr, when[:1].upper() + when[1:], m.start(), end=m.end())


# How many a booking or a party is for, one number at a time: "The Henderson party is 30 people",
# then "Update on the Henderson booking: they're now 24 people, not 30" (a fact "Henderson | party"
# and a reported one, both current; 30 came first for "How many guests are coming?").
_GATHERING = r"(?i:party|booking|table|group|reservation|event|dinner|lunch|wedding)"
_HEADS = r"\s+(?i:people|guests|persons|pax|covers|adults|diners)\b"
_PEOPLE = rf"(?P<num>\d{{1,4}}){_HEADS}"
_HEAD_COUNT = re.compile(
    rf"(?:(?i:the)\s+)?(?P<who>{_NAME})\s+{_GATHERING}(?:\s+(?i:is|are|was|has\s+been)\s+(?:(?i:now|still)\s+)?"
    rf"(?:(?i:for|down\s+to|up\s+to)\s+)?|\s*,\s+(?:(?i:for)\s+)?){_PEOPLE}"
    rf"|(?P<who2>{_NAME})\s+{_GATHERING}\b[^.;!?]{{0,30}}?\b(?i:they're|they\s+are|it's|it\s+is)\s+"
    rf"(?:(?i:now|still)\s+)?(?:(?i:down\s+to|up\s+to|for)\s+)?(?P<num2>\d{{1,4}}){_HEADS}")


# A business's opening hours, by the days they are of, and its prices, the group's: "We're open
# Monday to Friday, 8am to 6pm, and Saturdays 9am to 1pm", then "From next month we're open on
# Saturdays 9am to 12pm only"; "A check-up costs £55", then "From 1 December a check-up will cost
# £62" (each was the speaker's, "Olivia is open Monday to Friday ...", or a "said" fact).
_WD = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_OPEN = re.compile(r"(?<![\w'])(?:(?i:we're|we\s+are|we'll\s+be|we\s+will\s+be|the\s+(?:practice|shop|clinic|"
                   r"office|salon|restaurant|studio|surgery|bar|cafe|café|bakery)\s+(?:is|will\s+be))\s+"
                   r"(?:(?i:now|only)\s+)?"
                   r"(?i:open)|(?i:we'll|we\s+will|we're\s+going\s+to|we)\s+(?i:now\s+)?(?i:open)(?=\s+\d)|"
                   # "Opening hours for now are Tuesday to Saturday ...", "New hours from Monday: open ..."
                   r"(?i:(?:our\s+|the\s+)?opening\s+hours(?:\s+for\s+now)?\s+(?:are|will\s+be)(?:\s+now)?|"
                   r"(?:new\s+)?(?:opening\s+)?hours(?:\s+from\s+[^:;.!?]{3,30}?)?\s*:\s*(?:open\b)?))"
                   r"\s+(?P<when>[^.;!?]{3,120})")
_DAYS_HOURS = re.compile(
    rf"(?:on\s+)?(?P<days>{_WD}(?:\s*(?:to|-|–|and|&)\s*{_WD})?)\s*,?\s*(?:from\s+)?"
    r"(?P<hours>\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\s*(?:to|-|–|until|till)\s*\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)",
    re.I)
_PRICE_NAMES = frozenset("fee fees price prices cost costs rent rate charge charges subs bill".split())
_COSTS = re.compile(r"(?:^|[,;:]\s+|\b(?:and|so)\s+|\x00\d+\x00\s*,?\s+)(?i:a|an|the|each|one|our)\s+"
                    r"(?P<item>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+(?:(?i:now)\s+)?(?i:costs|will\s+cost|"
                    r"is\s+going\s+to\s+cost|is\s+priced\s+at|goes\s+up\s+to|will\s+go\s+up\s+to)\s+"
                    r"(?:(?i:us|me|them)\s+)?(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)")


# A price or a fee that goes up or down, said by its name alone: "Subs going up to £30 a month from
# October", "shirts going up again to £23.50", "so subs drop to £28 from November" (each was a
# "said" fact, and "Subs are £25 a month" stayed current).
_GOES_TO = re.compile(
    # ("Also Gary says rent goes up to $1,525 a month": told by whoever sets it)
    r"(?:^|[,;:]\s+|\b(?:and|so|but|also|now)\s+|\b(?:says|said|reckons|mentioned)\s+(?:that\s+)?)"
    r"(?:(?i:the|our|my|his|her|their|its)\s+)?"
    # (its second word no verb: "subs are going up to £50" is the subs', not "subs are"'s)
    r"(?P<item>[A-Za-z][a-z-]*(?:\s+(?!(?:is|are|will|has|have|had)\b)[a-z][\w-]*)?)"
    r"(?:(?i:'s|'re)\s+|\s+(?:(?i:is|are|will|will\s+be|has|have|had)\s+)?)"
    r"(?:(?i:now|also|just)\s+)?(?i:going|go|goes|went|gone|rising|rise|rises|rose|risen|"
    r"dropping|drop|drops|dropped|"
    r"coming|come|comes|came|falling|fall|falls|fell|jumping|jump|jumps|jumped)\s+(?:(?i:up|down)\s+)?"
    r"(?:(?i:again)\s+)?(?i:to)\s+"
    r"(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?(?:\s?[kK]\b)?|\d{1,2}(?:\.\d{1,2})?%)(?![\d,.]\d)")  # (a fee's "1.4%")
# ... its new amount said after, by whoever sets it: "the rent is going up :( Greenhill says £1,240 from
# 1 December".
_GOING_UP_SAYS = re.compile(
    r"(?:^|[,;:]\s+|\b(?:and|so|but|also|now)\s+)(?:(?i:the|our|my)\s+)?"
    r"(?P<item>[a-z][a-z-]*(?:\s+[a-z][\w-]*)?)\s+"
    r"(?i:is|are|'s)\s+(?i:going\s+up|going\s+down|rising|increasing|changing)\b[^.;!?£$€\x00]{0,40}?\b"
    r"(?i:says|said|wants|quoted|asking\s+for|now)\s+(?P<num>[£$€]\s?\d[\d,]*(?:\.\d\d)?)(?![\d,.]\d)")
_NOT_AN_ITEM = frozenset("it that this they we i he she which what who price prices cost costs".split())


_FROM_BEFORE = re.compile(r"\b(?:from|starting|as\s+of)\s+\S", re.I)
# ... the hours first: "open 7am to 4pm, Tuesday to Saturday"
_HOURS_DAYS = re.compile(
    r"(?P<hours>\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?\s*(?:to|-|–|until|till)\s*\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?)"
    rf"\s*,?\s*(?:(?:still|only|now|again)\s+)?(?:on\s+)?(?P<days>{_WD}(?:\s*(?:to|-|–|and|&)\s*{_WD})?)\b", re.I)


# What a thing charges, its fee: "The card machine (SumUp) charges us 1.75% per transaction", then
# "they've dropped our fee to 1.69%" (short_names.py puts "fee" on "card machine fee").
_CHARGES = re.compile(r"(?:^|[,;:]\s+|\b(?:and|so)\s+)(?i:the|our|my)\s+(?P<item>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+"
                      r"(?:\([^)]{1,30}\)\s+)?(?i:charges|takes|costs)\s+(?:(?i:us|me)\s+)?(?:(?i:now)\s+)?"
                      r"(?P<num>\d{1,2}(?:\.\d{1,2})?%)")


def _hours_and_prices(v: _Values) -> None:
    for m in _CHARGES.finditer(v.text):
        if m.group("item").split()[0].lower() not in lx.STOPWORDS:
            v.add(None, f"{m.group('item').lower()} fee", m.group("num"), m.start(), end=m.end())
    for m in _OPEN.finditer(v.sent.text):
        for d in [*_DAYS_HOURS.finditer(m.group("when")), *_HOURS_DAYS.finditer(m.group("when"))]:
            days = re.sub(r"(?<=day)s\b", "", " ".join(d.group("days").lower().split()))
            v.add(None, f"{days} opening hours", " ".join(d.group("hours").split()), m.start(), end=m.end())
            # ("New hours from Monday 19 October: open 7am to 4pm": from that day, the first said)
            if v.out and v.sent.dates and v.sent.dates[0].direction == "future" and _FROM_BEFORE.search(
                    v.sent.text, 0, m.start("when") + d.start()):
                v.out[-1].said_now, v.out[-1].from_day = False, True
    for m in _COSTS.finditer(v.text):
        item = m.group("item").lower()
        if item.split()[0] not in lx.STOPWORDS:
            what = "fee" if item.split()[-1] in lx.HIRED else "price"  # (a hall's: its fee)
            # (a price named as one is itself: "so the fee goes up to £1,230 a week" had been a "fee price" beside
            # the fee, and a slip after it took back only the one)
            named = item if item.split()[-1] in _PRICE_NAMES else f"{item} {what}"
            v.add(None, named, m.group("num").replace(" ", ""), m.start(), end=m.end())
    for m in (*_GOES_TO.finditer(v.text), *_GOING_UP_SAYS.finditer(v.text)):
        item = m.group("item").lower()
        if not set(item.split()) & (_NOT_AN_ITEM | lx.STOPWORDS):
            # told as the value it was said as before: "Subs are £25" is subs' (no one's)
            v.add(None, item, m.group("num").replace(" ", ""), m.start(), end=m.end())


def _head_counts(v: _Values) -> None:
    for m in _HEAD_COUNT.finditer(v.text):
        who = m.group("who") or m.group("who2")
        if who.split()[0].lower() in lx.STOPWORDS:
            continue
        v.add(v.owner(who, m.start()), "head count", f"{m.group('num') or m.group('num2')} people", m.start(),
              end=m.end())


# A team's players and where they play, one position each: "Leo Barnes is our striker, Noah Kim in goal,
# Ethan Cole and Alfie Doyle at the back, Maya Patel and Oscar Reid in midfield" (one fact, of Leo,
# held the whole line-up), then "Alfie goes back to defence".
_POSITION_WORDS = {"striker": "striker", "up front": "striker", "forward": "striker", "centre forward": "striker",
                   "in goal": "goalkeeper", "goalkeeper": "goalkeeper", "keeper": "goalkeeper",
                   "at the back": "defence", "in defence": "defence", "defender": "defence", "defence": "defence",
                   "in midfield": "midfield", "midfielder": "midfield", "midfield": "midfield",
                   "on the wing": "wing", "winger": "wing", "wing": "wing", "goal": "goalkeeper",
                   "attack": "striker"}
_POSITION_ALT = "|".join(sorted((re.escape(w).replace(r"\ ", r"\s+") for w in _POSITION_WORDS), key=len,
                                reverse=True))
_PLAYER = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?"
_PLAYS_AT = re.compile(
    rf"(?:^|[,;:]\s+|\b(?:and|so|but)\s+)(?:(?i:ok|okay|right|then|fine)[,!]?\s+)?"
    rf"(?P<who>{_PLAYER}(?:\s+(?i:and|&)\s+{_PLAYER})?)\s+"
    r"(?:(?i:is|are|'s|plays|play|will\s+play|goes|go|moves|is\s+going|is\s+moving)\s+(?:(?i:now|still|back)\s+)?"
    r"(?:(?i:our|the|a|an|in|at|to|into|on)\s+)?)?"
    rf"(?P<pos>(?i:{_POSITION_ALT}))\b(?!\s+(?i:coach|kit|gloves|bag|post|posts|line|kick))")


def _positions(v: _Values) -> None:
    if v.sent.t.assistant:
        return
    found = []
    for m in _PLAYS_AT.finditer(v.text):
        names = re.split(r"\s+(?:and|&)\s+", m.group("who"), flags=re.I)
        people = [e for n in names if (e := v.reg.get(n)) is not None and e.type == "person" and not e.speaker]
        if len(people) == len(names):
            found.append((m, people, _POSITION_WORDS[" ".join(m.group("pos").lower().split())]))
    # ("Zara gets picked up most weeks, she plays on the wing"? a word of a game is needed: one
    # position alone is said as a post, "is our striker", or with another one)
    if len(found) < 2 and not any(re.search(r"(?i:\bis\s+(?:our|the)\s|goes|moves|back)", m.group(0))
                                  for m, _, _ in found):
        return
    for m, people, pos in found:
        said = " ".join(m.group("pos").lower().split())
        where = said if " " in said else f"as {said}" if said not in ("goal", "defence", "midfield", "attack") \
            else f"in {said}"
        for e in people:
            told = f"{e.name} plays {where}" + ("" if where.endswith(pos) else f" ({pos})")
            v.add(e.name, "position", pos, m.start(), end=m.end(), text=f"{told}.")


# A standing order's quantities and delivery day: "40 croissants and 12 sourdough loaves every
# Tuesday", then "wants 60 croissants instead of 40, and she wants delivery on Wednesdays not
# Tuesdays", then "is dropping to 50 croissants" (each a "said" fact: the first order stayed current).
_ITEMS = r"(?P<num>\d{1,4})\s+(?:[a-z][\w-]*\s+)?(?P<noun>[a-z][\w-]*s)"
_ORDER_LINE = re.compile(
    rf"^(?:(?:so|and|ok|okay|it's|its)[,!]?\s+)?{_ITEMS}(?P<more>(?:\s*(?:,|and|&|\+)\s*\d{{1,4}}\s+(?:[a-z][\w-]*\s+)?"
    rf"[a-z][\w-]*s)*)\s+(?:every|each|per|a)\s+(?P<when>week|day|morning|{_WD})\b", re.I)
_ITEM = re.compile(r"(?P<num>\d{1,4})\s+(?:[a-z][\w-]*\s+)?(?P<noun>[a-z][\w-]*s)\b", re.I)
_COUNT_INSTEAD = re.compile(rf"\b{_ITEMS}\s+(?:instead\s+of|not|rather\s+than)\s+(?:the\s+)?\d{{1,4}}\b", re.I)
_COUNT_TO = re.compile(
    r"\b(?:(?:dropping|drop|drops|dropped|increasing|increases|increased|cutting|cuts|cut|upping|ups|upped|bumping|"
    r"bumps|bumped|reducing|reduces|reduced)\s+(?:it\s+)?(?:up\s+|down\s+|back\s+)?|(?:going|goes|went|gone)\s+"
    r"(?:up|down|back\s+down|back\s+up)\s+"
    # ("so I'll be down to 4 students after that", "so back to 5 students :)", "we're up to 12 members")
    r"|(?:^(?:so\s+|and\s+|now\s+)?|\b(?:be|am|are|is|was|were|now|so)\s+|'(?:m|re|s|ll\s+be)\s+)"
    r"(?:down|up|back(?:\s+down|\s+up)?)\s+)to\s+" + _ITEMS + r"\b", re.I)
_DELIVERY_ON = re.compile(
    rf"\b(?:wants?|wanting|needs?|has|have|having|gets?|moving|moves|moved|changing|changed|switching)\s+(?:the\s+)?"
    rf"deliver(?:y|ies)\s+(?:day\s+)?(?:to\s+)?(?:on\s+)?(?P<day>{_WD})\b(?:\s+(?:not|instead\s+of)\s+{_WD}\b)?", re.I)
_NOT_ITEMS = frozenset("""days weeks months years hours minutes mins times years weekends nights mornings evenings
people us guys kids others ones pounds quid dollars euros pence percent miles kms kilometres kilometers
metres meters laps reps sets pages words steps calories points goals shops stops places degrees grams kilos
kgs lbs litres liters inches feet seconds secs mins hrs""".split())


def _one_of(noun: str) -> str:
    """A plural's one: loaves a loaf, pies a pie, boxes a box."""
    if noun.endswith("ves"):
        return noun[:-3] + "f"
    if noun.endswith("ies") and len(noun) > 4:
        return noun[:-3] + "y"
    if noun.endswith(("xes", "ches", "shes", "sses")):
        return noun[:-2]
    return noun[:-1]


def _standing_order(v: _Values) -> None:
    if v.sent.t.assistant:
        return
    text, at = v.sent.text, v.sent.s1_pos  # (read in words: "every Tuesday" is a day's placeholder in s1)

    def said() -> str:
        """The sentence's own words, its days as the other facts tell them: each value's clause alone
        is a fragment ("40 croissants"). (Only for a sentence that holds an order: most hold none.)"""
        words = _fill(v.text, v.sent.rendered)
        words = words[:1].lower() + words[1:] if words[1:2].islower() else words
        return f"{v.speaker} said {words}".rstrip(" .!") + "."

    def count(m: re.Match) -> None:
        noun = m.group("noun").lower()
        if noun not in _NOT_ITEMS and noun not in lx.STOPWORDS and not noun.endswith("ss"):
            v.add(None, f"{_one_of(noun)} count", m.group("num"), at(m.start()), end=at(m.end()), text=said())

    if (line := _ORDER_LINE.match(text)) is not None:
        for m in _ITEM.finditer(text, 0, line.start("when")):
            count(m)
        if line.group("when")[:1].isupper():  # a weekday: the day it comes
            v.add(None, "delivery day", line.group("when"), at(line.start("when")), end=at(line.end()), text=said())
    for m in (*_COUNT_INSTEAD.finditer(text), *_COUNT_TO.finditer(text)):
        count(m)
    for m in _DELIVERY_ON.finditer(text):
        day = m.group("day")
        v.add(None, "delivery day", day[:1].upper() + day[1:], at(m.start()), end=at(m.end()), text=said())


# Firms' quotes said as a list: "Britannia Movers £4,200, Seven Seas Worldwide £3,650 and Anglo-Iberian
# Removals £3,900" (nothing was kept; "Anglo-Iberian revised their quote to £4,150" had no value before it).
_FIRM_PRICE = re.compile(r"(?P<firm>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*){0,3})\s+(?:(?i:at|for|is|quoted)\s+)?"
                         r"(?P<num>[£$€]\s?\d(?:[\d,]*\d)?(?:\.\d\d)?k?)(?![\d,.]\d)")
_LIST_JOINS = re.compile(r"^\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*;\s*)$", re.I)


def _firm_quotes(v: _Values) -> None:
    if v.sent.t.assistant:
        return
    text = v.sent.text
    found = list(_FIRM_PRICE.finditer(text))
    # (a list, each pair right after the one before: "A £1, B £2 and C £3")
    if len(found) < 2 or any(not _LIST_JOINS.match(text[a.end():b.start()]) for a, b in zip(found, found[1:])):
        return
    firms = [v.reg.get(m.group("firm")) for m in found]
    # (firms, most of them known as such: one read as a person by "going with Seven Seas Worldwide" is one
    # of the list; people's amounts, "Tom £20, Jane £30", are no quotes)
    if any(e is None or e.speaker for e in firms) or sum(e.type == "person" for e in firms) > max(0, len(firms) - 2):
        return
    for m, firm in zip(found, firms):
        firm.settle("organization")
        v.add(firm.name, "quote", m.group("num").replace(" ", ""), v.sent.s1_pos(m.start()),
              end=v.sent.s1_pos(m.end()), text=f"{firm.name} quoted {m.group('num')}.")


# A post of the organisation the episode named last, said with "the": "We've got a standing order now
# with The Copper Kettle, the cafe on Harrogate Road ... The owner is Priya Nair" (a "said" fact, of no
# one: "Who owns the cafe we supply?" found nothing of the cafe's).
_THE_POST_IS = re.compile(
    r"^(?:(?:and|oh|so|also)[,!]?\s+)?the\s+(?:new\s+)?(?P<role>owner|co-?owner|founder|co-?founder|manager|"
    r"head\s+chef|landlord|landlady|director|ceo|headteacher|head\s+teacher|contact|main\s+contact)\s+"
    r"(?:there\s+|here\s+)?"
    r"(?:is|'s)\s+(?:now\s+)?(?:a\s+(?:woman|man|guy|lady)\s+called\s+)?"
    r"(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)\b", re.I)


def _org_posts(v: _Values) -> None:
    if v.sent.t.assistant or (m := _THE_POST_IS.match(v.sent.text)) is None:
        return
    # (the firm named last, known as an organisation by now, else the organisation named last)
    org = next((e for name in (v.firm, v.org) if name and (e := v.reg.get(name)) and e.type == "organization"),
               None)
    who = v.reg.get(m.group("name"))
    if org is None or who is None or who.type != "person" or who.speaker:
        return
    role = " ".join(m.group("role").lower().replace("-", "").split())
    v.add(org.name, role, who.name, m.start(), end=m.end(),
          text=f"{who.name} is the {role} {'at' if role.endswith('contact') else 'of'} {org.name}.")


GROUP_READERS = (_head_counts, _hours_and_prices, _rota, _rota_days, _duties, _suppliers, _services, _trades, _deals,
                 _events, _stays, _new_holders, _numbered_holders, _org_posts, _standing_order, _firm_quotes, _line_up, _on_call, _topics,
                 _positions)
