"""Foresight: standing constraints, plans and deadlines, each with a trigger."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from app.construction import lexicon as lx
from app.construction.dates import absolute_text, number
from app.domain.models import ForesightDraft
from app.construction.local.bounds import LETTER, MAX_TEXT_CHARS, PLAN_DEFAULT_DAYS, _alt
from app.construction.local.text import PRONOUN_VERB, _WORD, _clip, _content_score
from app.construction.local.voice import _ADV_ALT, _Voice, conjugate, rewrite
from app.construction.local.inline_dates import TOLD_BACK, _BY_DATE_HINT, _MOVED_TO_HINT, _fill, _unplace, tense_of
from app.construction.local.entities import _Registry, kin_gender
from app.construction.local.sentence import _Sentence
from app.construction.local.fact_patterns import _I, _LIST_END, _chunk
from app.construction.local.medication import CLINICIAN


_MARK = re.compile(
    r"(?<![\w'])(I'm|I've|I'll|I'd|I|we're|we've|we'll|we'd|we|my|our|me|you're|you've|you'll|you|your|"
    r"he's|she's|he|she)(?![\w'])", _I)
_NEGATED = re.compile(r"(?:\bnot|n't|\bno longer|\bnever been|\bno)\s+(?:\w+\s+)?$", _I)
_ALLERGY_TO = re.compile(r"\ballergic\s+to\s+(?P<x>[^.;:!?()]+)", _I)
_ALLERGY_N = re.compile(rf"(?P<x>\b(?:(?:{LETTER}|-)+\s+){{0,2}}(?:{LETTER}|-)+)\s+allerg(?:y|ies)\b", _I)
# Before "my peanut allergy": it is over ("I outgrew my peanut allergy"), not had
# (foresight_end.py ends the constraint instead).
ALLERGY_GONE = re.compile(r"\b(?:outgrew|outgrown|grew\s+out\s+of|got\s+over|cured\s+of|got\s+rid\s+of|"
                          r"no\s+longer\s+(?:have|has|got))\s+(?:(?:my|his|her|their|our|the|a|an|this|that)\s+)?"
                          r"(?P<x>(?:[\w-]+\s+){0,2}?)allerg(?:y|ies)\b", _I)
_ALLERGY_ADJ = frozenset("""
a an my his her their our the some severe bad mild serious deadly food terrible life-threatening
slight major minor little really very have has had with got also
""".split())
_DIET_ALT = _alt(lx.DIETS)
_DIET = re.compile(
    r"(?:\b(?:am|is|are|been|became|become|becoming|went|gone|going|keep|keeps|kept|eat|eats|eating|"
    r"follow|follows|following|stay|stays|now|on\s+a|being|as\s+an?)|'m|'re|"
    r"(?<!\bit)(?<!\bthat)(?<!\bwhat)(?<!\bthere)(?<!\bwhich)(?<!\bhere)(?<!\bwho)(?<!\bthis)(?<!\beverything)'s)\s+"
    r"(?:(?:a|an|strictly|mostly|fully|strict|completely|totally|100%|also|still|now)\s+)*"  # ("I'm also vegan")
    rf"(?P<d>{_DIET_ALT})\b(?!-?\s*(?:restaurant|place|recipe|recipes|option|options|food|"
    r"foods|dish|dishes|cafe|café|menu|version|alternative|cookbook|friend|friends|bakery|burger|cheese|"
    r"meal|meals|spot|joint|diet\s+is))", _I)
_NO_EAT = re.compile(
    r"\b(?:don't|do not|doesn't|does not|can't|cannot|can not|never|won't|no longer|stopped|"
    # ("Geoff must not have grapefruit", "she isn't allowed to take ibuprofen")
    r"must\s+not|mustn't|should\s+not|shouldn't|(?:is|are|'s)\s+not\s+allowed\s+to|isn't\s+allowed\s+to)\s+"
    # ("she must never get bute on an empty stomach": of a mare's medicine)
    r"(?:really\s+)?(?:ever\s+)?(?P<v>eat|eating|drink|drinking|consume|touch|have|having|take|taking|get|be\s+given)\s+"
    r"(?P<x>[^.;:!?()]+)", _I)
# What is said of it after it ("ibuprofen or any other NSAID, it sets off an attack"), and what may be had
# instead ("ibuprofen or aspirin with it, only paracetamol for pain": it had been cut to "..., only")
_WHY = re.compile(r",\s*(?=(?:it|that|which|they|he|she|as|only|just|but|except|instead)\b)", _I)
_ANY_OF = re.compile(r"^(?:anything\s+(?:with|containing)\s+|any\s+(?!more\b))|\s+in\s+it$|"
                     r"\s+(?:before|after|during|on|at|for|with|the)$", _I)  # (what a chunk cut left dangling)
_ANYONE_WHO = re.compile(r"\b(?:people|those|anyone|anybody|someone|somebody|folks|guests|kids|everyone)\s+who\s+$", _I)
# What one must not have or take is food or a medicine ("must not have visitors" is no diet).
_HAD = frozenset("have having take taking get".split())
_NO_EAT_SKIP = frozenset("out much a an the that this it anything enough there here too well as like with "
                         "before after at in late early so very right".split())
_AVOID = re.compile(r"\b(?:avoid|avoids|avoiding|hate|hates|can't stand|cannot stand|dislike|dislikes|detest)\s+"
                    r"(?P<x>[^.;:!?(),]+)", _I)
_FEAR = re.compile(r"\b(?:afraid|scared|terrified|frightened|fearful|petrified|(?:fear|phobia))\s+of\s+"
                   r"(?P<x>[^.;:!?()]+)", _I)
_PHOBIA = re.compile(r"\b(?P<p>[a-z]+phobi[ac])\b", _I)
_HEALTH_ALT = _alt(lx.HEALTH)
_HEALTH = re.compile(
    r"\b(?P<lead>am|'m|is|are|'re|diagnosed with|have|has|'ve got|have got|suffer from|suffers from|get|gets|"
    r"suffering from|living with|live with|lives with|struggle with|struggles with|deal with|deals with|"
    r"dealing with|got|my|his|her|as)\s+(?:(?:a|an|type\s+[12]|chronic|severe|mild|really|pretty|very|also|still|"
    r"horribly|terribly|badly|easily|so|quite|photosensitive)\s+)*"
    rf"(?P<h>{_HEALTH_ALT})\b", _I)
# Said in passing of drink, driving, lifting, hearing and a doctor's advice (the forms people use:
# "haven't had a drink since New Year", "off the booze", "never learned to drive", "not supposed
# to pick up anything heavy", "Nana's hearing has gone downhill", "the physio told me to avoid").
_NO_ALCOHOL = re.compile(
    r"\b(?:(?:don't|do not|doesn't|does not|never|no longer|stopped|quit|gave up|given up|giving up)\s+"
    r"(?:really\s+)?(?:drink|drinking|drinks|alcohol|booze)(?![\w'])(?!\s+(?:coffee|tea|milk|water|soda|juice|"
    r"enough|much|caffeine|cola|coke|fizzy|out of|and drive))"
    r"|have(?:n't| not)\s+(?:had|touched)\s+a\s+(?:drink|drop)\b"
    r"|\b(?:off|quit|stopped)\s+(?:the\s+)?(?:booze|alcohol|drink|sauce)\b"
    r"|\b(?:years?|yrs?|months?)\s+sober\b"
    r"|\bnot\s+drinking\s+(?:alcohol|at the moment|these days|any\s?more)\b)", _I)
_NO_DRIVE = re.compile(
    r"\b(?:(?:don't|do not|doesn't|does not|can't|cannot|never learned to|never learnt to|never learned how to|"
    r"unable to|not allowed to)\s+drive(?![\w'])(?!\s+(?:today|tonight|tomorrow|now|there|home|back|to\b|that|"
    r"this|it|you|him|her|them|us|me|anymore|any more|after|at night|in\b))"
    r"|(?:no|without a|haven't got a|don't have a|doesn't have a|never got (?:my|a|his|her))\s+(?:driving\s+)?"
    r"licen[cs]e\b)", _I)
# A doctor's order: "my father must not drive for three months", "no driving until the scan".
_MUST_NOT_DRIVE = re.compile(
    r"\b(?:(?:must not|mustn't|should not|shouldn't|not supposed to|is not to|isn't to|not permitted to|"
    r"isn't allowed to|is not allowed to|not allowed to)\s+(?:be\s+)?driv(?:e|ing)(?![\w'])"
    r"|no\s+driving)(?!\s+(?:today|tonight|tomorrow|there|home|back|to\b|that|this|it|you|him|her|them|us|me|"
    r"after|at night|in\b|lessons?|tests?|instructor|school|range))", _I)
_ON_CONDITION = re.compile(r"\s*,?\s+(?P<c>(?:if|unless|when|while|below|under)\b[^.;!?,]{1,60})", _I)
_NO_LIFT = re.compile(
    r"\b(?:can't|cannot|can not|not supposed to|not allowed to|shouldn't|mustn't|must not|unable to|"
    r"told (?:me|him|her|us) not to)\s+(?:lift|carry|pick up)\s+(?:anything|heavy|much|more|things|boxes|"
    r"weights)\b", _I)
_NO_DRIVE_DARK = re.compile(
    r"\b(?:no|not|can't|cannot|mustn't|shouldn't|not allowed to|not supposed to|stopped|don't|doesn't|won't)\s+"
    r"(?:be\s+)?driv(?:e|ing)\s+(?:(?:after|once|when)\s+(?:dark|it's dark|it is dark|it gets dark|sunset|"
    r"nightfall)|at night|in the dark)\b", _I)
_NO_FLY = re.compile(
    r"\b(?:(?:don't|do not|doesn't|does not|won't|will not|never|refuse to|no longer)\s+fly(?![\w'])"
    r"(?!\s+(?:with|into|out|over|to\b|from|back|home|there|in\b|on\b|direct|economy|business|first))"
    r"|no\s+flying\b|(?:stopped|gave up|given up)\s+flying\b)", _I)
_BLOOD_THINNER = re.compile(
    r"\b(?:(?:on|taking|takes|take|started|starting|prescribed|with)\s+(?:a\s+|the\s+|my\s+|his\s+|her\s+)?"
    r"(?:blood[- ]thinners?|warfarin|apixaban|eliquis|rivaroxaban|xarelto|clopidogrel|coumadin|anticoagulants?)"
    r"|(?:it's|it is|its)\s+(?:still\s+)?a\s+blood[- ]thinner)", _I)
# ... and ibuprofen ruled out, for whatever reason (a rash, asthma): no blood thinner said ("Finn can't have
# ibuprofen, he came out in a rash" had been "Finn takes a blood thinner").
# ("can't have ibuprofen", "must not take ibuprofen" are a rule of no food or medicine already: _NO_EAT)
_NO_IBUPROFEN = re.compile(r"\b(?:no|never|mustn't take|shouldn't take)\s+(?:any\s+)?(?:ibuprofen|nurofen|advil|"
                           r"nsaids?)(?![\w'])", _I)
_LOW_SALT = re.compile(
    r"\b(?:off\s+(?:the\s+)?salt|cut(?:ting)?\s+(?:out|down on|back on)\s+(?:the\s+)?salt|"
    r"low[- ](?:salt|sodium)|salt[- ]free|watch(?:ing)?\s+(?:my|his|her|the|your)\s+salt)\b", _I)
_TYPE_DIABETES = re.compile(
    r"(?:\b(?:am|is)|'m|'s)\s+(?:a\s+)?type\s+(?:1|2|one|two)\b(?!\s*(?:error|fun|personality|font))", _I)
# "I'm not good with heights", "you know what I'm like with heights": a fear said sideways.
_BAD_WITH = re.compile(
    r"\b(?:not good|no good|bad|terrible|useless|hopeless|funny|weird|wobbly|rubbish|(?:what|how)\s+"
    r"(?:I'm|I am|he's|he is|she's|she is|they're|we're)\s+like)\s+with\s+(?P<x>heights|flying|planes|boats|"
    r"deep water|water|the sea|needles|blood|crowds|spiders|snakes|dogs|small spaces|lifts|elevators)\b", _I)
# Between whom a rule is said by and the rule: "He says no driving", "the nurse told me no salt".
_SAYS = re.compile(r"\s+(?:says?|said|told\s+(?:me|us)|tells?\s+(?:me|us)|reckons|wants\s+(?:me|us))\b", _I)
_JOINT = re.compile(
    r"\b(?:had|has had|having|getting|got|needs?|waiting for)\s+(?:a\s+|an\s+|my\s+|his\s+|her\s+|their\s+|"
    r"the\s+)?(?:new\s+)?(?:(?:left|right)\s+)?(?P<j>knee|hip|shoulder)\s+(?P<w>replaced|replacement|"
    r"op|operation|surgery)\b", _I)
# A sore part of the body, told as it is now: "My right knee hurts when I go down stairs", "my
# back is killing me". What someone plans for them (a leg workout, a hike) must keep it in mind;
# it was a fact "Mei's right | knee | hurts ...", found for no workout asked.
_SORE = re.compile(
    r"\b(?P<whose>my|his|her)\s+(?P<side>(?:left|right|lower|upper)\s+)?(?P<part>knee|knees|back|hip|hips|ankle|"
    r"ankles|shoulder|shoulders|wrist|wrists|neck|foot|feet|elbow|elbows|hamstring|calf|achilles|shin|shins)\s+"
    r"(?:(?:still|really|always|now|also)\s+)?(?P<how>hurts?|aches?|is\s+(?:sore|painful|stiff|swollen|injured|"
    r"playing\s+up|killing\s+(?:me|him|her))|has\s+been\s+(?:hurting|aching|sore|playing\s+up)|"
    r"(?:is\s+|'s\s+)?acting\s+up|gives?\s+(?:me|him|her)\s+(?:trouble|pain))"
    r"(?P<rest>(?:\s+(?:when|on|after|during|if|going)\b[^.;:!?]{0,50})?)", _I)
_TOLD_AVOID = re.compile(
    r"\btold\s+(?P<who>me|us)\s+to\s+(?:avoid|stay off|stay away from|steer clear of)\s+"
    r"(?P<x>[^.;:!?()]+)", _I)
# A restriction for a while, a carer's or one's own: "Physio says no jumping for 3 weeks", "I'm not
# allowed to jump until the scan", "the doctor told me not to run", "No lunges for now either".
_RESTRICTED = re.compile(
    r"(?:\b(?:physio|physiotherapist|doctor|dr|gp|nurse|surgeon|consultant|dentist|specialist|midwife|"
    r"coach|trainer|vet)\s+(?:says|said|told\s+(?:me|us)|wants\s+(?:me|us))\s+(?:to\s+)?(?:no|not\s+to|"
    r"to\s+avoid|to\s+stop)\s+|(?:\bI'm|\bI\s+am|\bwe're|\bwe\s+are)\s+not\s+allowed\s+to\s+|"
    r"\btold\s+(?:me|us)\s+not\s+to\s+|^(?:and\s+|also\s+)?no\s+(?=\w+(?:ing|s)\s+(?:for\s+now|for\s+(?:a\s+few|"
    r"\d+|one|two|three|four|five|six)\s+(?:days|weeks|months)|until|till)\b))"
    r"(?P<x>[a-z][\w-]*(?:\s+(?!for\b|until\b|till\b|either\b|again\b|now\b|yet\b)[a-z][\w-]*)?)", _I)
_NOT_RESTRICTED = frozenset("worries worry problem problems plans rush news idea way doubt".split())
_HEARING = re.compile(
    r"\b(?:hard of hearing|(?:hearing|ears?)\s+(?:has|have|is|are|'s|was)\s+(?:\w+\s+){0,2}?(?:gone|going|bad|"
    r"terrible|poor|downhill|worse|failing|awful)\b|(?:wears?|wearing|needs?)\s+(?:a\s+)?hearing\s+aids?\b|"
    r"(?:going|gone|half|partially|profoundly)\s+deaf\b)", _I)
# Getting about: "Tom uses a wheelchair", "she's in a wheelchair", "Dad walks with a stick".
_WHEELCHAIR = re.compile(r"\b(?:uses?|using|in|needs?)\s+a\s+wheelchair\b|\bwheelchair\s+user\b", _I)
_WALKING_AID = re.compile(r"\b(?:walks?|walking)\s+with\s+a\s+(?:stick|cane|walker|frame|zimmer)\b|"
                          r"\buses?\s+a\s+(?:walker|walking\s+frame|zimmer\s+frame|mobility\s+scooter)\b", _I)
# A diagnosis the lexicon does not name: "Nana was diagnosed with heart failure in December".
_DIAGNOSED = re.compile(r"\bdiagnosed\s+with\s+(?:an?\s+|early\s+)?(?P<x>[^.;:!?(),]+)", _I)
_DIAGNOSIS_END = re.compile(r"\s+(?:in|on|at|last|this|since|after|before|when|and|but|so|which|who|while|"
                            r"back|earlier|recently|yesterday|today)\b", _I)
# Constraints said in a fixed form, the first of each in a sentence: (pattern, what it says of
# whom it names, situation keys, trigger words).
_SAID_ONCE = (
    (_NO_ALCOHOL, "does not drink alcohol", ["drinks"],
     ["alcohol", "drink", "drinking", "booze", "wine", "beer"]),
    (_NO_DRIVE_DARK, "must not drive after dark", ["driving"],
     ["drive", "driving", "dark", "night", "evening", "car", "lift"]),
    (_MUST_NOT_DRIVE, "must not drive", ["driving"], ["drive", "driving", "car", "lift"]),
    (_NO_DRIVE, "does not drive", ["driving"], ["drive", "driving", "car", "lift"]),
    (_NO_FLY, "does not fly", ["flying", "travel"], ["fly", "flying", "flights", "plane", "airport", "trains"]),
    (_BLOOD_THINNER, "takes a blood thinner: no ibuprofen or aspirin", ["medicine", "health"],
     ["ibuprofen", "aspirin", "painkillers", "pain relief", "blood thinner", "bleeding"]),
    (_NO_IBUPROFEN, "must not take ibuprofen", ["medicine", "health"],
     ["ibuprofen", "nurofen", "painkillers", "pain relief", "pain", "headache", "fever", "temperature"]),
    (_LOW_SALT, "is on a low-salt diet", ["food"], ["salt", "salty", "crisps", "chips", "takeaway"]),
    (_TYPE_DIABETES, "has diabetes", ["diabetes", "health"], ["diabetes", "insulin", "sugar", "snacks"]),
    (_NO_LIFT, "can't lift heavy things", ["mobility"], ["lift", "lifting", "heavy", "carry"]),
    (_HEARING, "is hard of hearing", ["hearing", "health"], ["hearing", "phone", "call"]),
    (_WHEELCHAIR, "uses a wheelchair", ["mobility"],
     ["wheelchair", "stairs", "steps", "step-free", "accessible", "access", "lift", "room", "venue", "book",
      "booking", "hall", "place", "concert", "event"]),
    (_WALKING_AID, "walks with an aid", ["mobility"], ["walking", "stairs", "steps", "accessible", "distance"]),
)
_ONE_PER_SENTENCE = frozenset({"drinks", "diabetes", "driving"})
# A whole sentence that is a diet, said in a request: "dinner tonight, 20 min max. vegetarian."
# ... or as one's own from now on, however firmly: "completely gluten free from now on, no exceptions,
# even crumbs" (after a coeliac diagnosis; a "said" fact), "the dietitian says strictly gluten free".
_BARE_DIET = re.compile(rf"^(?:(?:the\s+|my\s+)?[\w-]+\s+(?:says?|said)\s+)?"
                        rf"(?:(?:strictly|still|fully|also|and|completely|totally|entirely|100%)\s+)*(?P<d>{_DIET_ALT})"
                        r"(?:\s+(?:please|pls|only|btw|now|from\s+now\s+on|for\s+good|for\s+life))*"
                        r"(?:\s*,\s*(?:no\s+exceptions|not\s+even|even|strictly|absolutely|for\s+life)\b[^.!?]*)*"
                        r"\s*[.!]*$", _I)
# Between a name and its constraint: "Pim is allergic", "Pim's vegan", "Sam has really bad asthma".
_COPULA_GAP = re.compile(
    r"(?:'s|\s+(?:is|was|has|had|gets|got|has\s+been|is\s+now))?(?:\s+(?:really|very|also|severely|badly|"
    r"quite|so|still|now))*\s*", _I)
# Two said to be it at once: "both me and Ruth are vegan", "Tom and I are both coeliac".
_TWO_ARE = re.compile(r"(?:\b(?i:both)\s+)?(?P<a>\b(?i:me|I)\b|[A-Z][\w'-]+)\s+(?i:and)\s+"
                      r"(?P<b>\b(?i:me|I)\b|[A-Z][\w'-]+)(?:\s+(?i:are)(?:\s+(?i:both))?)?\s*$")
# (... or a client's, told: "Ingrid said they never want machine translation used on their documents")
_RULE_NEVER = re.compile(rf"(?<![\w'])(?:I|we|they(?=\s+never\s+want\b))\s+never\s+(?P<v>{LETTER}+)\b[^.;!?]{{0,80}}", _I)
_RULE_WHEN = re.compile(
    r"(?<![\w'])(?:I|we)\s+(?:can't|cannot|can not|don't|do not|won't|will not)\s+[^.;!?]{2,60}?\s+"
    r"(?:on\s+(?:sundays|saturdays|mondays|tuesdays|wednesdays|thursdays|fridays|weekends|weekdays|"
    r"the\s+weekends?|holidays)|after\s+\d{1,2}(?::\d\d)?\s*(?:am|pm|p\.m\.|a\.m\.)?|"
    r"before\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)?|at\s+night|in\s+the\s+(?:mornings?|evenings?)|"
    r"during\s+(?:the\s+week|work\s+hours|lent|ramadan))\b", _I)
# When someone can only do something: "Priya can only interview after 4pm UK time", "Sam is
# only available on Tuesdays", "Jo isn't available before 10".
_ONLY_WHEN = re.compile(
    r"(?<![\w'])(?P<who>I|we|she|he|[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)\s+(?:can\s+only|could\s+only|"
    r"is\s+only\s+available|are\s+only\s+available|"
    r"am\s+only\s+available|'m\s+only\s+available|only\s+works?|is\s+not\s+available|isn't\s+available|"
    r"can't\s+do|cannot\s+do)\b[^.;!?]{0,40}?\b(?:after|before|on|between|in\s+the|at|until|till|from)\s+"
    r"[^.;!?,]{1,40}", _I)
_NOT_RULE_VERBS = frozenset("""
been thought knew expected imagined realized realised understood heard saw felt said told meant noticed
considered dreamed dreamt believed liked loved got had went did made tried wanted really actually even
""".split())
# A "never" with nothing after these but chat's fillers says no rule ("i never go lol").
_VAGUE_VERBS = frozenset("go do use bother get try have make remember check care mind win learn listen".split())
_FILLERS = frozenset("lol haha hahaha lmao tbh tho though anyway anyways really honestly either ever xd".split())
_PLAN_CUE = re.compile(
    r"(?:(?<![\w'])(?:going to|gonna|planning to|planning on|plan to|plans to|hoping to|hope to|want to|"
    r"wanna|would like to|would love to|intend to|intending to|about to|thinking about|thinking of|"
    # (not a will left: "Dad's will names me and Mum as executors")
    r"considering|looking forward to|can't wait to|can't wait for|"
    r"(?<!['’]s\s)(?<!\bthe\s)(?<!\ba\s)(?<!\bhis\s)(?<!\bher\s)(?<!\bmy\s)(?<!\btheir\s)(?<!\bour\s)will|"
    r"scheduled to|supposed to|need to|"
    r"have to|has to|got to|gotta|aiming to|aim to|decided to|booked|signed up for|registered for|entered|"
    r"signed\s+(?:me|us|him|her|them|[A-Z][\w'-]*)(?:\s+(?:both|all))?\s+up\s+for|"
    # asked of the assistant for a day: "also put us down for the Chamber of Commerce networking breakfast on Thursday
    # 12th Nov" (no plan: "cancel the chamber breakfast on thursday btw" had nothing to end)
    r"(?:put|sign|book|pencil)\s+(?:me|us)(?:\s+(?:both|all))?\s+(?:down|up|in)\s+for|"
    r"preparing for|getting ready for|promised|promise)|'ll|'d like to|'d love to)(?![\w'])", _I)
_WEAK_CUES = frozenset({"promised", "promise", "need to", "have to", "has to", "got to", "gotta", "supposed to",
                        "considering", "thinking about", "thinking of",
                        "booked", "entered"})  # ("We booked Satin Strings instead": done, no day ahead)
_WILL_FILLER = frozenset("""
let see check think tell say keep talk try be get do take make bet admit miss never always
probably definitely just send find figure give love like use stick stay
""".split())  # ("For Fernweh I'll use Figma too": a choice of tool, no plan to remind of)
# A wish said as one not had: "doesn't want to", "never wants to" (just before the cue).
_NOT_WANTED = re.compile(r"(?:n't|n’t|\bnot|\bnever)\s+$", _I)
_DESIRE_CUES = frozenset({"want to", "wanna", "would like to", "'d like to", "hope to", "hoping to",
                          "would love to", "'d love to"})
# A verb that puts a dated event ahead: "I'm flying ... next month", "Emma starts school in May".
_SCHEDULED = re.compile(
    r"(?:(?:(?<![\w'])(?:am|are|is)|'m|'re|'s)\s+(?:(?:{})\s+)?[a-z]+ing|(?<![\w'])(?:starts?|begins?|leaves?|"
    r"arrives?|fl(?:y|ies)|returns?|opens?|graduates?|moves?|comes?|goes|is|are|visits?|lands?|needs?|has|have|"
    r"expires?|runs?\s+out)|"  # ("Leo's Keppra runs out in January": a day to be ready for)
    r"'s|'re)(?![\w'])".format(_ADV_ALT), _I)


@dataclass
class _Who:
    name: str
    start: int
    end: int
    person: bool  # a first person / a named person (not "you" unresolved)


_ASKS = re.compile(r"\s+(?:wants|needs|expects|requires|requested|asked\s+for|asks\s+for)\b", _I)


# Whom the speaker deals with, by what they are to them: "The accountant needs the receipts by
# 15 December", "our landlord wants the form back by Friday".
_ROLE_ASKS = re.compile(r"(?:^|\b(?:the|our|my)\s+)(?P<r>[a-z-]+)(?=\s+(?:wants|needs|expects|requires|requested|"
                        r"asked\s+for|asks\s+for)\b)", _I)


_ASKERS = lx.PROFESSIONS | lx.TRADES | lx.ORG_ROLES | frozenset(
    "landlord landlady gp physio school nursery council bank insurer lender agency club league".split())


def _firm_asks(sent: _Sentence, pos: int, reg: _Registry) -> bool:
    """An organisation, or one who works for the speaker, before `pos` asks for something
    ("Halden needs the plans by Monday", "The accountant needs the receipts by 15 December")."""
    return any(mm.start < pos and (e := reg.get(mm.key)) is not None and e.type == "organization"
               and _ASKS.match(sent.text, mm.end) for mm in sent.mentions) or any(
        m.start() < pos and m.group("r").lower() in _ASKERS for m in _ROLE_ASKS.finditer(sent.text))


def _who_before(sent: _Sentence, pos: int, reg: _Registry, recent: str | None) -> _Who | None:
    """The nearest subject-like marker before `pos`: a pronoun or a person mentioned."""
    t = sent.t
    best: _Who | None = None
    for m in _MARK.finditer(sent.text):
        if m.start() >= pos:
            break
        low = m.group(1).lower()
        base = low.split("'")[0]
        if base in ("i", "we", "my", "our", "me"):
            if low == "i" and m.group(1) == "i" and sent.text[m.end():m.end() + 1] == ".":
                continue
            best = _Who(t.speaker, m.start(), m.end(), True)
        elif base in ("you", "your"):
            best = _Who(t.other or "", m.start(), m.end(), bool(t.other))
        else:
            # "Mia couldn't come, she's allergic": the person named earlier in the sentence.
            # (another speaker of the chat too: "Gerry's got atrial fibrillation and he's on warfarin", said by Maggie)
            named = [mm for mm in sent.mentions if mm.start < m.start()
                     and (e := reg.get(mm.key)) is not None and e.type == "person" and e.name != t.speaker]
            who = reg.get(named[-1].key).name if named else recent
            if who and kin_gender(who) not in (None, "f" if base == "she" else "m"):
                who = None  # "He's coeliac" is not about "Zoe's mum"
            best = _Who(who or "", m.start(), m.end(), bool(who))
    for mm in sent.mentions:
        if mm.start >= pos:
            break
        ent = reg.get(mm.key)
        if ent and ent.type == "person" and (best is None or mm.start >= best.start):
            best = _Who(ent.name, mm.start, mm.end, True)
    return best


def _variants(word: str) -> list[str]:
    w = word.lower()
    if len(w) < 3 or not w.isalpha() or w.endswith(("ing", "ss", "us", "is")):
        return [w]
    if w.endswith("ies"):
        return [w, w[:-3] + "y"]
    if w.endswith(("ches", "shes", "xes", "oes")):
        return [w, w[:-2]]
    if w.endswith(("sh", "ch", "x")):  # "shellfish": "shellfishes", not "shellfishs"
        return [w, w + "es"]
    if w.endswith("s") and not w.endswith("ss"):
        return [w, w[:-1]]
    return [w, w + "s"]


def _trigger(keys: list[str], extra: list[str]) -> str:
    seen: set[str] = set()
    parts: list[str] = []
    for k in keys:
        for p in lx.SITUATIONS.get(k, "").split(", "):
            if p and p not in seen:
                seen.add(p)
                parts.append(p)
    for p in extra:
        p = " ".join(p.split()).strip(" ,.")
        if p and p.lower() not in seen:
            seen.add(p.lower())
            parts.append(p)
    return ", ".join(parts)[:600]


def _content_words(text: str, limit: int = 6) -> list[str]:
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        if (len(w) >= 4 and w not in lx.STOPWORDS and w not in lx.COMMON_WORDS and w not in lx.INTERJECTIONS
                and w not in out):
            out.append(w)
            if len(out) >= limit:
                break
    return out


def _allergen_key(words: list[str]) -> str:
    for w in words:
        if w in lx.FOODS:
            return "food"
        if w in lx.PET_ALLERGENS:
            return "pets"
        if w in lx.OUTDOOR_ALLERGENS:
            return "outdoors"
        if w in lx.MEDICINES:
            return "medicine"
    return "food"


# Words without one of which no constraint pattern can match: a set test is far cheaper than
# running a dozen patterns over every sentence.
_CONSTRAINT_WORDS = frozenset("""
allergic allergy allergies vegan vegetarian pescatarian gluten-free kosher halal lactose dairy-free
keto paleo celiac coeliac teetotal sober plant-based eat eating drink drinking consume touch avoid
avoids avoiding hate hates stand dislike dislikes detest afraid scared terrified frightened fearful
petrified fear phobia never sundays saturdays mondays tuesdays wednesdays thursdays fridays weekends
weekdays weekend holidays after before night mornings evenings morning evening during
gluten dairy plant lactose-intolerant veggie booze alcohol sober drive driving licence license lift carry pick
told hearing ears deaf fly flying thinner thinners warfarin apixaban eliquis rivaroxaban xarelto clopidogrel
coumadin anticoagulant anticoagulants ibuprofen nurofen advil nsaid nsaids salt sodium salt-free type
heights planes boats needles blood crowds spiders snakes dogs lifts elevators knee hip shoulder
allowed says no wheelchair walker stick cane frame zimmer scooter only available has have must commute
needs gets extra colour-blind color-blind colourblind photos photo pictures videos
""".split()) | frozenset(w for h in lx.HEALTH for w in h.split())


def _may_constrain(text: str) -> bool:
    words = set(_WORD.findall(text.lower()))
    if not words.isdisjoint(_CONSTRAINT_WORDS):
        return True
    return any(w.endswith(("phobia", "phobic")) for w in words)


# A capitalised word opening the clause right before a constraint ("Melanie can't eat gluten",
# "Mel is vegan"): a subject the sentence names that no rule knew as a person (a name first seen
# there; sentence-initial names are not read as names, since "Work is hard" looks the same).
_OPENING_WORD = re.compile(rf"(?:^|[,;:(]\s*|\b(?:and|but|so|because)\s+)(?P<w>[A-Z]{LETTER}*)")


def _unknown_subject(text: str, pos: int) -> bool:
    """Whether the clause before `pos` opens with a word that names someone other than the
    speaker: a capitalised word that is neither a pronoun nor a function word, then only what
    may stand between a subject and its constraint (_COPULA_GAP)."""
    for m in _OPENING_WORD.finditer(text, 0, pos):
        w = m.group("w")
        if (w.lower() not in lx.STOPWORDS and w.lower() not in lx.PRONOUNS and w != "I"
                and _COPULA_GAP.fullmatch(text, m.end(), pos)):
            return True
    return False


# A rule said to the listener as a reminder, naming no one: the listener is who keeps it.
_TO_THE_LISTENER = re.compile(r"^(?:(?:and|but|so|oh|also|now)\s*,?\s+)?(?:remember|don't forget|do not forget|"
                              r"just a reminder|reminder)\b", _I)


# What a home, a venue or a trip must be, said as a rule of the speaker's (_constraint).
_HOME_THINGS = frozenset("flat flats apartment apartments house houses home place places property properties "
                         "rental rentals commute".split())
_REQUIREMENTS = (
    re.compile(r"(?:^|[,;:]\s*|\b(?:so|and|but)\s+)(?P<x>(?:the|our|my|any|each|every)\s+(?:new\s+|next\s+)?"
               r"(?P<thing>flat|apartment|house|home|place|property|rental|venue|room|hotel|car)\s+"
               r"(?:(?:has|have|needs?|must)\s+to\s+(?:be|have)|must\s+(?:not\s+)?(?:be|have)|can't\s+be|"
               r"cannot\s+be)\b[^.;!?]{3,80})", _I),
    re.compile(r"\b(?P<x>no\s+(?P<thing>flats|apartments|houses|places|properties|rentals|venues|hotels)\s+"
               r"(?:with|without|that|on|in|near|above|over)\b[^.;!?]{3,60})", _I),
    re.compile(r"(?P<x>\b(?:my|our)\s+(?P<thing>commute|journey\s+to\s+work)\s+(?:can't|cannot|mustn't|shouldn't|"
               r"must\s+not|should\s+not)\s+be\s+(?:more|longer)\s+than\s+[^.;!?,]{2,40})", _I),
)
_EXTRA_TIME = re.compile(r"\b(?:needs|need|gets|get|has|have|is\s+entitled\s+to|should\s+get|must\s+get)\s+"
                         r"(?P<x>\d{1,3}\s?%\s+extra\s+time(?:\s+(?:in|on|for)\s+[^.;:!?,]{2,30})?"
                         r"|extra\s+time\s+(?:in|on|for)\s+(?:all\s+|every\s+|his\s+|her\s+|their\s+|the\s+)?"
                         r"(?:tests?|exams?|assessments?|quizzes|mocks?)\b)", _I)
# No pictures of someone to be shared: "no photos of Maya online", "don't post pictures of Leo"
# (a photo consent not given; it had been a fact of Maya's parents, found only by "photos").
_NO_PHOTOS = re.compile(r"\b(?:no|don't\s+(?:post|share|upload|put\s+up)|never\s+(?:post|share|upload)|"
                        r"do\s+not\s+(?:post|share|upload))\s+(?:any\s+)?(?:photos?|pictures?|images?|videos?)\s+"
                        r"of\s+(?P<who>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)"
                        r"(?P<where>\s+(?:online|on\s+[\w -]{3,30}))?", _I)
_APPOSITIVE = re.compile(r",\s+[^,;:.!?]{2,40},", _I)
# A name the sentence opens with, set off by what they are: "Eleanor, the regular at table 3, is
# allergic to shellfish" (read as an address to her: no mention, and it was the speaker's allergy).
_NAME_APPOSITIVE = re.compile(r"^(?P<n>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?),\s+(?:the|our|my|a|an|one)\s+"
                              r"[^,;:.!?]{2,40},", _I)
# A subject said as a noun phrase, not a name: "one of their guests", "the bride", "the risotto".
_NP = re.compile(r"(?:^|[,;:]\s*|\b(?:and|but|so|also)\s+)(?P<np>(?:one\s+of\s+)?"
                 r"(?:the|this|that|these|those|their|his|her|a|an)\s+(?:[\w-]+\s+){0,3}?(?P<head>[\w-]+))", _I)
_NP_AT_END = re.compile(f"{_NP.pattern}(?:{_COPULA_GAP.pattern})$", _I)
_PERSON_NOUNS = lx.KIN | lx.PROFESSIONS | frozenset("""
guest bride groom client customer visitor patient host diner person people man woman boy girl lady gentleman
attendee member regular child kid baby toddler
""".split())


# ("half the aunties don't drive in the dark": "of" left out after half and all)
_SOME_OF = re.compile(r"\b(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|some|most|half|many|"
                      r"a\s+couple)\s+of|half|all)\s+(?:the|our|their|his|her|my|them)\b[^.;!?,]{0,30}?\s+"
                      r"(?:(?:are|were)\s+)?$", _I)


def _np_subject(text: str, pos: int) -> re.Match | None:
    """The noun phrase that is the subject of what is said at `pos`, when it is one."""
    m = _NP_AT_END.search(text, 0, pos)
    return m if m is not None and m.group("head").lower() not in lx.STOPWORDS else None


def _subject_at(sent: _Sentence, reg: _Registry, recent: str | None, pos: int,
                said_only: bool = False, dish: bool = False) -> str | None:
    """Whom a constraint said at `pos` is about; `said_only`: only when the sentence says whom
    before it (no one else's advice to the speaker, no speaker when no one is said); `dish`:
    what is said may be said of a thing ("vegetarian"), which is then no one."""
    text = sent.text
    # The name just before: "Pim is allergic to tree nuts" is Pim's, whether or not Pim was
    # met as a person before (a constraint is someone's).
    for mm in reversed(sent.mentions):
        if mm.end > pos:
            continue
        appos = _APPOSITIVE.match(text, mm.end, pos)  # "Mr Okafor, one of our regulars, has ..."
        if _COPULA_GAP.fullmatch(text, appos.end() if appos else mm.end, pos):
            ent = reg.get(mm.key)
            if ent is not None and ent.type not in ("place", "organization", "project"):
                return ent.name
    if _SOME_OF.search(text, max(0, pos - 60), pos):
        return None  # "8 of the guests are vegetarian": some of them, no one to hold it (it was the speaker's)
    if (np := _np_subject(text, pos)) is not None:
        # "One of their guests is coeliac": that guest's; "The pumpkin risotto is vegetarian":
        # a dish's, no one's constraint ("the left ear is the bad one" is the speaker's, below)
        head = np.group("head").lower()
        if head in _PERSON_NOUNS or head.rstrip("s") in _PERSON_NOUNS:
            said = rewrite(np.group("np"), _Voice(sent.t.speaker, sent.t.other, sent.companion))
            return said[:1].upper() + said[1:]
        if dish:
            return None
    if (named := _NAME_APPOSITIVE.match(text)) and _COPULA_GAP.fullmatch(text, named.end(), pos) \
            and named.group("n").lower() not in lx.STOPWORDS:
        return named.group("n")
    who = _who_before(sent, pos, reg, recent)
    if said_only:
        return who.name if who is not None and who.person else None
    if who is None and _unknown_subject(text, pos):
        return None  # Sam saying "Melanie can't eat gluten": Melanie's, never Sam's
    if who is None and sent.t.other and _TO_THE_LISTENER.match(text):
        return sent.t.other  # "And remember, still no driving once it's dark": the listener's
    if who is None or _SAYS.match(text, who.end, pos):
        # "Mr Dalton says no driving after dark": the advice is the speaker's to keep
        return sent.t.speaker
    return who.name if who.person else None  # "she is allergic" with no one to be "she"


_OPINED = re.compile(r"\b(?:thinks?|thought|says?|said|suspects?|suspected|reckons?|believes?|confirmed|"
                     r"diagnosed|wonders?|wondered|mentioned)\b", _I)


def _constraint(sent: _Sentence, reg: _Registry, recent: str | None,
                pet: str | None = None) -> list[ForesightDraft]:
    """The constraints `sent` says; `recent`, whom its "she" or "he" is; `pet`, the animal a rule was just said
    of, whom they are instead."""
    text = sent.text
    t = sent.t
    if not _may_constrain(text):
        return []
    found: list[tuple[str, list[str], list[str]]] = []  # (text, situation keys, trigger words)

    def add(subject: str | None, predicate: str, keys: list[str], words: list[str]) -> None:
        if subject:
            found.append((f"{subject} {predicate}", keys, words))

    def subject_at(pos: int, dish: bool = False) -> str | None:
        who = _subject_at(sent, reg, recent, pos, dish=dish)
        # (after a rule said of a pet, its pronoun's: "Mochi must NOT be given any sedatives ..." "she can't have
        # anything with chicken in it" is the cat's, not the vet's named before)
        if pet is not None and who is not None and (who == recent or CLINICIAN.match(who)):
            return pet
        if who is not None and CLINICIAN.match(who) and _OPINED.search(text, 0, pos):
            return None  # what a doctor thinks a patient has is no rule of the doctor's ("Dr Mehta thinks it
            # could be cow's milk protein allergy" had been "Dr Mehta has a milk protein allergy.")
        return who

    def each_at(pos: int, dish: bool = False) -> list[str | None]:
        """Whom it is said of at `pos`: the two of "both me and Ruth are vegan", else one."""
        two = _TWO_ARE.search(text, max(0, pos - 40), pos)
        if two is None:
            return [subject_at(pos, dish)]
        named = [t.speaker if w.lower() in ("me", "i") else w for w in (two.group("a"), two.group("b"))]
        return [w if (e := reg.get(w)) is None else e.name for w in named
                if w.lower() not in lx.STOPWORDS]

    for m in _ALLERGY_TO.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 20), m.start()):
            continue
        x = _chunk(_unplace(rewrite(m.group("x"), _Voice(t.speaker, t.other, sent.companion))), _LIST_END, 8)
        if x:
            for who in each_at(m.start()):
                add(who, *_allergic_to(x))
    if not found:
        for m in _ALLERGY_N.finditer(text):
            words = [w for w in m.group("x").lower().split() if w not in _ALLERGY_ADJ]
            while words and words[0] not in lx.FOODS and len(words) > 1:
                words = words[1:]
            if (not words or words[-1] in lx.STOPWORDS
                    or _NEGATED.search(text, max(0, m.start() - 20), m.start())
                    or ALLERGY_GONE.search(text, max(0, m.start() - 30), m.end())):
                continue
            x = " ".join(words)
            add(subject_at(m.start()), f"has a {x} allergy", [_allergen_key(words)],
                          [v for w in words for v in _variants(w)] + ["allergy", "allergic"])
    for m in _DIET.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 12), m.start() + 4):
            continue
        d = m.group("d").lower()
        for who in each_at(m.start(), dish=True):
            add(who, f"{lx.DIETS.get(d, 'is ' + d)}", ["food"], [d, "diet"])
    for m in _NO_EAT.finditer(text):
        # ("she can't have anything with chicken in it", "must NOT be given any sedatives": the chicken, sedatives)
        x = _ANY_OF.sub("", _WHY.split(_chunk(m.group("x"), _LIST_END, 6), maxsplit=1)[0])
        first = x.split(" ", 1)[0].lower() if x else ""
        if not x or first in _NO_EAT_SKIP or first in lx.PRONOUNS:
            continue
        v = m.group("v").lower()
        if (v in _HAD or v.startswith("be")) and first not in lx.FOODS | lx.MEDICINES | lx.MEDICATIONS or \
                _ANYONE_WHO.search(text, 0, m.start()):
            continue  # ("it's dairy-free for people who can't have lactose": no one's)
        drink = v.startswith("drink")
        neg = m.group(0).split(" ", 1)[0].lower()
        aux = {"can't": "can't", "cannot": "can't", "can": "can't", "never": "never",
               "stopped": "no longer", "no": "no longer", "won't": "won't", "must": "must not", "mustn't": "must not",
               "should": "must not", "shouldn't": "must not"}.get(neg, "doesn't")
        if neg in ("is", "are", "'s", "isn't"):
            aux = "must not"  # ("is not allowed to have")
        elif neg == "never" and re.search(r"\b(?:must|should)\s+$", text[:m.start()], re.I):
            aux = "must never"  # ("she must never get bute on an empty stomach")
        base = "drink" if drink else "take" if v.startswith("tak") else "have" if v in _HAD or v.startswith("be") else "eat"
        verb = f"{aux} {conjugate(base)}" if aux in ("never", "no longer") else f"{aux} {base}"
        if (who := subject_at(m.start())) is not None and CLINICIAN.match(who):
            continue  # ("she can't have anything with chicken in it" is never the vet's)
        add(who, f"{verb} {x}", ["drinks" if drink else _allergen_key([first])],
                      [v for w in _WORD.findall(x.lower()) if w not in lx.STOPWORDS for v in _variants(w)])
    for m in _AVOID.finditer(text):
        x = _chunk(m.group("x"), _LIST_END, 5)
        words = _WORD.findall(x.lower())
        if any(w in lx.FOODS for w in words[:2]):
            key = "food"
        elif x.lower() in lx.FEARS:
            key = lx.FEARS[x.lower()]
        else:
            continue
        verb = "avoids" if m.group(0).lower().startswith("avoid") else "dislikes"
        add(subject_at(m.start()), f"{verb} {x}", [key],
                      [v for w in words if w not in lx.STOPWORDS for v in _variants(w)])
    for m in _FEAR.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 12), m.start()):
            continue
        x = _chunk(m.group("x"), max_words=4)
        xl = x.lower()
        if not x or xl.split(" ", 1)[0] in lx.PRONOUNS | {"that", "this", "it", "what", "how", "being"}:
            continue
        key = next((v for k, v in sorted(lx.FEARS.items(), key=lambda kv: -len(kv[0]))
                    if xl == k or xl.startswith(k + " ") or k in xl.split()), None)
        add(subject_at(m.start()), f"is afraid of {x}", [key] if key else ["events"],
                      [w for w in _WORD.findall(xl) if w not in lx.STOPWORDS] + ["fear"])
    for m in _PHOBIA.finditer(text):
        p = m.group("p").lower()
        key = lx.PHOBIAS.get(p[:-1] + "a")
        if key is None:
            continue
        add(subject_at(m.start()), f"has {p[:-1] + 'a'}", [key], [p, "fear", "phobia"])
    named_condition = False  # one the lexicon names: "diagnosed with diabetes" is not said again
    for m in _HEALTH.finditer(text):
        if _NEGATED.search(text, max(0, m.start() - 12), m.start() + len(m.group("lead")) + 1):
            continue
        h = m.group("h").lower()
        key, phrase = lx.HEALTH[h]
        if m.group("lead").lower() in ("my", "his", "her") and not phrase.startswith("has "):
            continue  # "my blind date" is not blindness
        if m.group("lead").lower() in ("am", "'m", "is", "are", "'re", "as") and phrase.startswith("has "):
            if h not in ("diabetic", "asthmatic", "epileptic", "pregnant", "deaf", "blind", "colorblind",
                         "claustrophobic", "seasick", "celiac", "lactose intolerant"):
                continue  # "I am anxiety" is not English; "I am blind" is
        add(subject_at(m.start()), f"{phrase}", [key, "health"] if key != "health" else [key], [h])
        named_condition = True
    for rx, says, keys, words in _SAID_ONCE:
        m = rx.search(text)
        # One of these per sentence: "I don't drink alcohol" and "I'm diabetic" are already one
        # (the patterns above), and "no driving after dark" is not also "does not drive".
        if m and not (keys[0] in _ONE_PER_SENTENCE and any(keys[0] in k for _, k, _ in found)):
            if rx is _MUST_NOT_DRIVE and (when := _ON_CONDITION.match(text, m.end())) is not None:
                # ("he is NOT allowed to drive if his sugar is under 5": had been "must not drive", its why lost)
                says, words = f"{says} {when.group('c').strip()}", [*words, *_WORD.findall(when.group("c").lower())]
            add(subject_at(m.start()), says, keys, words)
    for m in _BAD_WITH.finditer(text):
        x = m.group("x")
        add(subject_at(m.start("x")), f"is afraid of {x}", [lx.FEARS.get(x.lower(), "events")],
            [x.lower(), "fear"])
    for m in _JOINT.finditer(text):
        j, w = m.group("j").lower(), m.group("w").lower()
        says = f"has had a {j} replacement" if w.startswith("replace") else f"has had {j} surgery"
        add(subject_at(m.start()), says, ["mobility", "health"], [j, "walking", "stairs", "active"])
    for m in _SORE.finditer(text):
        whose = t.speaker if m.group("whose").lower() == "my" else subject_at(m.start())
        part = f"{(m.group('side') or '').lower()}{m.group('part').lower()}"
        rest = rewrite(m.group("rest"), _Voice(t.speaker, t.other, sent.companion)) if m.group("rest") else ""
        hurts = "hurt" if part.endswith(("s", "feet")) and not part.endswith("achilles") else "hurts"
        add(whose, f"has a sore {part}: it {hurts}{rest}" if rest.strip() else f"has a sore {part}",
            ["mobility", "health"], [m.group("part").lower(), "exercise", "workout", "training", "walking",
                                     "running", "stairs", "legs", "gym"])
    for m in _TOLD_AVOID.finditer(text):
        # "... for two weeks and to do squats": the list's end is no part of what to avoid.
        x = _TRAILING_AND.sub("", _chunk(m.group("x"), _LIST_END, 6))
        words = _WORD.findall(x.lower())
        if x:
            add(t.speaker, f"has been told to avoid {x}",
                ["food"] if any(w in lx.FOODS for w in words) else ["mobility", "health"],
                [v for w in words if w not in lx.STOPWORDS for v in _variants(w)])
    for m in _RESTRICTED.finditer(text) if not found else ():  # (driving, lifting: the rules above)
        x = m.group("x").lower()
        # (not a food: "the vet says no grapes or raisins EVER, they're toxic for dogs" had been "Priya must avoid
        # grapes or"; what is not to be eaten is read as such, and whose)
        if x.split()[0] not in _NOT_RESTRICTED | lx.STOPWORDS and not set(x.split()) & lx.FOODS:
            told = m.group(0).lower()
            said = f"must avoid {x}" if re.search(r"\b(?:no|avoid|stop)\s+$", told[:m.start("x") - m.start()]) \
                else f"must not {x}"  # "no jumping": avoid jumping; "not allowed to jump": not jump
            # (a medicine to stop is the pharmacy's and a headache's, not a run's: "Mei must avoid
            # ibuprofen completely" came up for "Plan a run" and third for "can I take ibuprofen?")
            med = set(x.split()) & lx.MEDICATIONS
            add(subject_at(m.start()) if told.startswith(("i'm", "i am", "we")) else t.speaker, said,
                ["medicine", "health"] if med else ["mobility", "health"],
                [v for w in x.split() for v in _variants(w)]
                + (["painkiller", "medication", "take"] if med else []))
    for m in _NO_PHOTOS.finditer(text):
        if (who := m.group("who")) and who.lower() not in lx.STOPWORDS | lx.PRONOUNS:
            ent = reg.get(who)
            where = " ".join((m.group("where") or " online").split())
            add(ent.name if ent is not None else who, f"must not be in photos or videos shared {where} "
                "(no photo consent)",
                ["photos"], ["photos", "pictures", "post", "share", "online"])
    for m in _EXTRA_TIME.finditer(text):  # "Amir needs 25% extra time in all tests": an accommodation
        add(subject_at(m.start()), f"needs {' '.join(m.group('x').split())}", ["tests"],
            ["extra time", "tests", "exams"])
    m = None if named_condition else _DIAGNOSED.search(text)
    x = _chunk(_DIAGNOSIS_END.split(m.group("x"), 1)[0], _LIST_END, 4) if m else ""
    if x and x.split(" ", 1)[0].lower() not in lx.STOPWORDS:
        add(subject_at(m.start()), f"has {x}", ["health"],
            [w for w in _WORD.findall(x.lower()) if w not in lx.STOPWORDS])
    voice = _Voice(t.speaker, t.other, sent.companion)
    for rx in _REQUIREMENTS if not sent.question else ():
        # "so the flat has to be on the ground floor or have a lift", "no flats with a no pets
        # lease", "my commute can't be more than 40 minutes": what a home (a venue, a car) must be
        for m in rx.finditer(text):
            if any(m.start() <= d.pos < m.end() for d in sent.dates):
                continue  # "the car must be back by Friday": a deadline (_plan)
            said = _clip(rewrite(m.group("x"), voice).rstrip(" ,"), 160)
            if said.lower().startswith(t.speaker.lower()):  # "Priya's commute can't be ..."
                rule = said[:1].upper() + said[1:]
            else:  # (begun by whose it is, which it concerns: entity_resolution.concerned)
                rule = f"{t.speaker}'s requirement: {said[:1].lower() + said[1:]}"
            thing = m.group("thing").lower()
            found.append((rule, ["housing"] if thing in _HOME_THINGS else ["schedule"],
                          [thing, *_content_words(m.group("x"), 4)]))
    m = _BARE_DIET.match(text)
    if m and not sent.question and not found:
        d = m.group("d").lower()
        add(t.speaker, lx.DIETS.get(d, "is " + d), ["food"], [d, "diet"])
    for m in _ONLY_WHEN.finditer(text) if not sent.question else ():
        who = m.group("who")
        if who.lower() in ("she", "he"):  # "Priya wants 120k. Also she can only interview after 4pm"
            w = _who_before(sent, m.end("who"), reg, recent)  # (the pronoun itself is the marker)
            name = w.name if w is not None and w.person and w.name != t.speaker else None
        else:
            name = t.speaker if who.lower() in ("i", "we") else reg.get(who).name if reg.get(who) else None
        if name is None or (name != t.speaker and reg.get(name).type != "person"):
            continue
        rule = _clip(rewrite(m.group(0), voice).rstrip(" ,"), 200)
        if who.lower() in ("she", "he"):
            rule = name + rule[len(who):]
        found.append((rule, ["schedule"], _content_words(m.group(0), 4) + ["available", "when", "schedule"]))
    for rx in (_RULE_NEVER, _RULE_WHEN):
        for m in rx.finditer(text):
            if rx is _RULE_NEVER:
                v = m.group("v").lower()
                if v in _NOT_RULE_VERBS or v in lx.IRREGULAR_PAST or v.endswith("ed") or v in lx.STOPWORDS:
                    continue
                rest = [w for w in _WORD.findall(text[m.end("v"):m.end()].lower()) if w not in _FILLERS]
                if not rest and v in _VAGUE_VERBS:
                    continue  # "probably the gym, i never go lol": a habit owned to, no rule of what
            theirs = m.group(0)[:4].lower() == "they"  # a client's: whose, said before it
            said = text[:m.end()] if theirs and m.start() <= 80 else m.group(0)  # (".. from Lindqvist: Ingrid said")
            rule = _clip(rewrite(said, voice).rstrip(" ,"), 200)
            keys = [k for w in _WORD.findall(m.group(0).lower()) for k in lx.SITUATION_CUES.get(w, ())]
            found.append((rule, keys or (["work"] if theirs else ["schedule"]), _content_words(m.group(0), 4)))
    return [draft(sent, ftext, keys, words) for ftext, keys, words in found]


def plan_until(at: datetime, ahead: list) -> datetime:
    """When a plan said at `at` stops mattering: the day after the last of the days it names
    (`ahead`, date mentions), else PLAN_DEFAULT_DAYS on."""
    if ahead:
        end_day = max(m.end for m in ahead) + timedelta(days=1)
        return datetime.combine(end_day, time(0, 0), tzinfo=at.tzinfo)
    return at + timedelta(days=PLAN_DEFAULT_DAYS)


# A promise told back (inline_dates.TOLD_BACK: "You said you'd follow up by Friday but I heard
# nothing"): its day has passed, or is theirs to keep, not a plan of whoever says it (it was a
# deadline on the Friday after).
_BROKEN_PROMISE = re.compile(TOLD_BACK, re.IGNORECASE)
# A day that will not be kept: "he won't finish by 18 December", "we can't make it by Friday".
_NOT_BY = re.compile(r"\b(?:won't|will\s+not|can't|cannot|can\s+not|(?:is|are|am)n?'?t?\s+not\s+going\s+to|"
                     r"isn't\s+going\s+to|aren't\s+going\s+to|not\s+going\s+to)\s+(?:be\s+)?(?:[\w-]+\s+){0,3}?"
                     r"(?:by|before)\s+", re.IGNORECASE)


# A move at work is no move of house: "I'm moving to the identity project" (its trigger was
# "moving, housing, packing, new home").
_WORK_MOVE = re.compile(r"\b(?:move|moves|moved|moving|relocat\w*|transferr?\w*)\s+(?:over\s+)?(?:on)?to\s+"
                        r"(?:the\s+|a\s+|an\s+|another\s+|our\s+)?(?:[\w-]+\s+){0,2}?(?:project|team|role|office|"
                        r"department|squad|org|group|position|job|branch)\b", re.IGNORECASE)


# Homes said as where a rule holds, not as a home moved to or let: "house rules for both homes: no phones at the table"
# (its triggers had been moving and housing).
_RULES_AT_HOME = re.compile(r"\bhouse\s+rules?\b|\b(?:at|in|for)\s+(?:both|each|either|all|our|the)\s+(?:homes|houses)\b",
                            re.IGNORECASE)


# A meal said as a time of day, no food: "please don't put me down for anything Fri after lunch" (it had come
# with every question of snacks and treats).
_MEAL_AS_TIME = re.compile(r"\b(?:after|before|until|till|til|by|from|around)\s+(?:lunch|dinner|breakfast|tea)(?:\s*time)?\b|"
                           r"\blunchtimes?\b", re.IGNORECASE)


# A swimmer's "fly" is butterfly: "no fly sets longer than 100m for now" (it had come with every question of flights).
_FLY_STROKE = re.compile(r"\bfly(?=\s+(?:sets?|kicks?|stroke|drills?|reps?|lengths?)\b)", re.IGNORECASE)


# A day moved, no home: "let's move the tech rehearsal to Saturday the 5th" (it had surfaced for "packing" and "new
# home").
_DAY_MOVED = re.compile(r"\b(?:move|moves|moved|moving)\s+(?:[\w'-]+\s+){0,4}?(?:back\s+|forward\s+)?(?:to|from)\s+"
                        r"(?:the\s+)?(?:\d|(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                        r"[a-z]*\b|next\b|tomorrow\b|tonight\b)", re.IGNORECASE)


# What eats into a sum is no meal: "the fees eat the margin" (a card payments rule had surfaced for dinner).
_EATS_INTO = re.compile(r"\beat(?:s|ing)?\s+(?:into\s+|up\s+)?(?:the\s+|our\s+|my\s+|all\s+)?"
                        r"(?:margins?|profits?|budget|savings|money|costs?)\b", re.IGNORECASE)


def _cue_text(said: str) -> str:
    said = _EATS_INTO.sub(" costs ", said)
    said = _DAY_MOVED.sub(lambda m: " schedule " + m.group(0).split(None, 1)[1], _FLY_STROKE.sub("butterfly", said))
    return _MEAL_AS_TIME.sub(" schedule ", _RULES_AT_HOME.sub(" rules ", _WORK_MOVE.sub(" work ", said)))


def situation_cues(said: str) -> tuple[list[str], list[str]]:
    """The situations (lexicon.SITUATION_CUES) and the first trigger words of what was said."""
    words = [w for w in _WORD.findall(_cue_text(said).lower())
             if w not in lx.STOPWORDS and w not in lx.PRONOUNS and len(w) > 2]
    return list(dict.fromkeys(k for w in words for k in lx.SITUATION_CUES.get(w, ()))), words[:6]


# "avoid downhill running for two weeks", "no lifting for the next six weeks": a constraint that
# ends. Not one held so long already ("I've been vegetarian for two years").
_FOR_SPAN = re.compile(r"\bfor\s+(?:the\s+next\s+)?(?P<n>\d{1,3}|a|one|two|three|four|five|six|seven|eight|"
                       r"nine|ten|a\s+couple\s+of|a\s+few)\s+(?P<unit>day|week|month)s?\b", _I)
_HELD_SO_LONG = re.compile(r"(?:\b(?:have|has|had)\s+been|'ve\s+been|'s\s+been)\b", _I)
_SPAN_DAYS = {"day": 1, "week": 7, "month": 30}


def _ends_after(said: str, at: datetime) -> datetime | None:
    """When a constraint said so ends: `at` plus the span it names, else None (standing)."""
    m = _FOR_SPAN.search(said)
    if m is None or _HELD_SO_LONG.search(said, 0, m.start()):
        return None
    return at + timedelta(days=number(m.group("n")) * _SPAN_DAYS[m.group("unit").lower()])


# "not allowed to drive until her eye test on 14 December", "no lifting till the 3rd": the day
# it ends on.
_UNTIL_BEFORE = re.compile(r"\b(?:until|till|til|through)\s+(?:(?:her|his|my|the|their|our|your)\s+"
                           r"(?:[\w'-]+\s+){1,3}?on\s+)?$", _I)


def _ends_on(sent: _Sentence, at: datetime) -> datetime | None:
    """The end of the day a constraint is said to hold until, ahead of when it was said: a day
    without its year read as past ("until 14 December", said in October) is the coming one."""
    for d in sent.dates:
        if not _UNTIL_BEFORE.search(sent.text, max(0, d.pos - 60), d.pos):
            continue
        end = datetime.combine(d.end, time(23, 59, 59), tzinfo=at.tzinfo)
        if end < at and not re.search(r"\b\d{4}\b", d.phrase):
            end = end.replace(year=end.year + 1)
        return end if end > at else None
    return None


# A day someone cannot do: "he can't do next Tuesday after all" holds for that day, not for ever.
_CANT_THAT_DAY = re.compile(r"\b(?:can't|cannot|can\s+not|won't\s+be\s+able\s+to)\s+(?:do|make)\b|"
                            r"\b(?:isn't|is\s+not|not)\s+available\b", _I)


def _ends_that_day(sent: _Sentence, at: datetime) -> datetime | None:
    """The end of the day ahead a sentence says someone cannot do, said right after it, else None."""
    m = _CANT_THAT_DAY.search(sent.text)
    day = next((d for d in sent.dates if m is not None and d.granularity == "day" and d.start >= at.date()
                and m.end() <= d.pos <= m.end() + 16), None)
    return datetime.combine(day.end, time(23, 59, 59), tzinfo=at.tzinfo) if day is not None else None


_TRAILING_AND = re.compile(r"\s+(?:and|or|but|then)$", _I)


def draft(sent: _Sentence, text: str, keys: list[str], words: list[str]) -> ForesightDraft:
    """A standing constraint said in `sent`, with its trigger; one said to hold for a span ends
    when it does."""
    return ForesightDraft(text=_clip(text, MAX_TEXT_CHARS).rstrip(" .") + ".",
                          trigger=_trigger(keys, words + lx.found_in(words)),
                          turn_ids=[sent.t.turn.id], valid_from=sent.t.at,
                          valid_to=_ends_after(sent.text, sent.t.at) or _ends_on(sent, sent.t.at)
                          or _ends_that_day(sent, sent.t.at), kind="constraint")


def _allergic_to(x: str) -> tuple[str, list[str], list[str]]:
    """"is allergic to `x`", its situation and its trigger words."""
    words = _WORD.findall(x.lower())
    if "latex" in words:  # gloves, a dentist's or a nurse's ("Book Mr Osei in for a filling")
        return (f"is allergic to {x}", ["medical", "dentist"],
                ["latex", "allergy", "gloves", "filling", "dental", "hygiene", "check-up", "procedure",
                 "treatment"])
    return (f"is allergic to {x}", [_allergen_key(words)],
            [v for w in words if w not in lx.STOPWORDS for v in _variants(w)] + ["allergy"])


def allergy_of(sent: _Sentence, who: str, x: str) -> ForesightDraft:
    """"`who` is allergic to `x`", said in `sent` as the answer to a question (answers.py), with
    the trigger the sentence rules give an allergy."""
    predicate, keys, words = _allergic_to(x)
    return draft(sent, f"{who} {predicate}", keys, words)


# A duty with a time limit from now: "the deposit must be protected within 30 days of receiving
# it", "we need to reply within two weeks": a deadline that long after its saying.
_WITHIN = re.compile(r"\b(?:must|needs?\s+to|has\s+to|have\s+to|should|got\s+to)\b[^.;!?]{1,60}?\bwithin\s+"
                     r"(?:the\s+next\s+)?(?P<n>\d{1,3}|a|one|two|three|four|five|six|seven|eight|ten|fourteen|"
                     r"thirty)\s+(?P<unit>day|week|month)s?\b", _I)


def _within(sent: _Sentence) -> ForesightDraft | None:
    m = _WITHIN.search(sent.text)
    n = number(m.group("n")) if m else None
    if not n or sent.question:
        return None
    t = sent.t
    said = rewrite(sent.s1, _Voice(t.speaker, t.other, sent.companion))
    ftext = _clip(_fill(said, sent.rendered).strip().rstrip(" .!?"), MAX_TEXT_CHARS) + "."
    keys, words = situation_cues(sent.text)
    return ForesightDraft(text=ftext[:1].upper() + ftext[1:], trigger=_trigger(["schedule", *keys], words),
                          turn_ids=[t.turn.id], valid_from=t.at,
                          valid_to=t.at + timedelta(days=n * _SPAN_DAYS[m.group("unit").lower()]), kind="deadline")


# A to-do done, told as done: "I delivered the guidelines today", "I submitted the tax return".
_DONE_TODAY = re.compile(
    r"(?<![\w'])(?:I|we)(?:'ve|\s+have)?\s+(?:(?:just|finally|already|now)\s+)*(?:delivered|submitted|sent\s+off|"
    r"finished|completed|filed|handed\s+in|published|released|shipped|launched|renewed|paid|returned)\b", re.I)


_APOLOGY = re.compile(r"^(?:(?:sorry|oops|apologies|my\s+bad|correction)\b[^:]{0,50}|[^:]{0,40}\b(?:got\s+it\s+"
                      r"wrong|made\s+a\s+mistake|mixed\s+(?:it|them)\s+up)\b[^:]{0,20}):\s*", _I)


_RUNS_OUT = re.compile(r"\bruns?\s+out\b", _I)
_HE_SHE = re.compile(r"^(?:He|She)(?P<v>'s|'ll|'d)?\b")


_FROM_TODAY = re.compile(r"\bfrom\s+(?:tonight|today|this\s+(?:morning|evening))\b", _I)


# A cheer or a comfort said as what will be: "you'll smash it", "you'll be fine", "it'll be great".
_CHEERED = re.compile(r"^(?:(?:oh|aw+|ah|honestly|seriously|and|but|so)[,!]?\s+)*(?:you|you'll|you\s+will|it'll|it\s+will|"
                      r"they'll|she'll|he'll)\s*(?:(?:totally|definitely|absolutely|so|really)\s+)?"
                      r"(?:(?:will\s+)?(?:smash|nail|ace|crush|rock|kill|own)\s+it|(?:will\s+)?be\s+(?:fine|great|amazing|brilliant|"
                      r"ok|okay|alright|grand|lovely|perfect))\b[\s!.]*(?:[x:;)(\-]+)?$", re.IGNORECASE)


def _plan(sent: _Sentence, reg: _Registry, recent: str | None) -> ForesightDraft | None:
    text = sent.text
    t = sent.t
    if _BROKEN_PROMISE.search(text):
        return None  # "You said you'd follow up by Friday but I heard nothing": a day gone by
    if sent.dates and {d.pos for d in sent.dates} <= {m.end() for m in _NOT_BY.finditer(text)}:
        return None  # "he won't finish by 18 December": no deadline of that day (it had been one)
    if _DONE_TODAY.search(text) and not any(d.direction == "future" for d in sent.dates):
        return None  # "I delivered the Halden brand guidelines today": done, no plan (it was a deadline)
    if _FROM_TODAY.search(text) and not any(d.direction == "future" for d in sent.dates):
        return None  # "14 units from tonight": a value that holds from now on, no plan of a day (it had been one)
    if (within := _within(sent)) is not None:
        return within
    if _CHEERED.search(text):
        return None  # "you'll smash it": a cheer, no plan of hers
    low_words = set(_WORD.findall(text.lower()))
    ahead = [d for d in sent.dates if d.direction in ("future", "present")]
    deadline = bool(low_words & lx.DEADLINE_WORDS) or bool(_RUNS_OUT.search(text))
    # A plan due by a day ahead ("the questionnaire by Friday", "a quote by next Friday") is a
    # deadline (the kind only: it makes no plan of its own).
    due = deadline or bool(ahead and _BY_DATE_HINT.search(text))
    who: _Who | None = None
    cue, standing = None, False
    for c in _PLAN_CUE.finditer(text):
        cw = " ".join(c.group().lower().split())
        before = text[max(0, c.start() - 6):c.start()].lower()
        if before.endswith(("was ", "were ")):
            continue
        if cw in _WEAK_CUES and not (ahead or deadline):
            continue
        if cw in ("will", "'ll"):
            nxt = _WORD.match(text, c.end() + 1)
            if nxt and nxt.group() in _WILL_FILLER and not ahead:
                continue
        if cw in _DESIRE_CUES and not ahead and _content_score(_chunk(text[c.end():], _LIST_END, 10)) < 2:
            continue  # "I want to show it off": too vague to plan for
        # ("she doesn't want to be photographed from her left side at all": a standing wish, no plan of a month)
        standing = cw in _DESIRE_CUES and not ahead and _NOT_WANTED.search(text[:c.start()]) is not None
        if cw.startswith("promise") and not _content_score(_chunk(text[c.end():], _LIST_END, 10)):
            continue  # "... than Ines promised": what, it does not say
        w = _who_before(sent, c.start() + (1 if cw.startswith("'") else 0), reg, recent)
        if w is None and cw.split()[0] in ("put", "sign", "book", "pencil"):
            if not ahead:
                continue  # ("put me down for a coffee": no day, no plan)
            w = _Who(t.speaker, c.start(), c.start(), True)  # ("put us down for ...": the speaker's, asked of no one)
        if w is None or not w.person:
            continue
        gap = text[w.end:c.start()]
        if len(gap.split()) > 3 or any(ch in gap for ch in ",;:"):
            continue
        who, cue = w, c
        break
    if cue is None:
        if not ahead or (all(d.direction == "present" for d in ahead) and tense_of(text) == "past"):
            return None  # ("Amir's mum came in today": done, no plan)
        pos = ahead[0].pos
        w = _who_before(sent, pos, reg, recent)
        # "Launch is October 15th", "launch slipped to November 2nd": the speaker's, by its words.
        event = bool(set(_WORD.findall(text[:pos].lower())) & lx.SCHEDULED_EVENTS)
        if w is None and due and _firm_asks(sent, pos, reg):
            w = _Who(t.speaker, 0, 0, True)  # "Brightwave wants the labels by Friday": the speaker's to meet
        if w is None and not (deadline or event):
            return None
        scheduled = _SCHEDULED.search(text, 0, pos) is not None or _MOVED_TO_HINT.search(text) is not None
        # "Rachel wants a quote by Friday"; "Claire refs the home friendly against Oakfield on Sun 13 Dec"
        if not (scheduled or deadline or (due and w is not None) or (event and w is not None and w.person)):
            return None
        who = w or _Who(t.speaker, 0, 0, True)
    voice = _Voice(t.speaker, t.other, sent.companion)
    clause = max(text.rfind(", ", 0, who.start), text.rfind("; ", 0, who.start))
    said_from = clause + 2 if clause >= 0 else 0
    start = sent.s1_pos(said_from)
    if (sorry := _APOLOGY.match(sent.s1)) is not None and start < sorry.end():
        start = sorry.end()  # "Sorry, I got it wrong earlier: the Okafor booking is on ...": the booking's
    clause = sent.s1[start:]
    ftext = _fill(rewrite(clause, voice), sent.rendered).strip()
    if start > 0 and ftext[:1].islower() and not ftext.startswith((t.speaker, who.name)):
        ftext = ftext[0].upper() + ftext[1:]
    if (he := _HE_SHE.match(ftext)) is not None and who.person and who.name:
        # "Rafael gave notice, he's moving out on ...": whom "he" is, as the plan is read alone;
        # not whom the plan names after it ("She's shadowing Hana this week": Priya, said before)
        said = next((m for m in _MARK.finditer(text, said_from) if m.group(1).lower()[:2] in ("he", "sh")), None)
        own = _who_before(sent, said.end(), reg, recent) if said is not None else None
        name = own.name if own is not None and own.person and own.name else who.name
        verb = he.group("v") or ""
        if name not in ftext[he.end():]:  # ("she's my accountant from October 1": not "Maya's accountant is
            ftext = f"{name}{PRONOUN_VERB.get(verb.lower(), verb)}{ftext[he.end():]}"  # Maya's accountant")
    ftext = _clip(ftext.rstrip(" .!?"), MAX_TEXT_CHARS) + "."
    at = t.at
    by = _BY_DATE_HINT.search(text) if due else None
    due_day = next((d for d in ahead if by and d.pos >= by.start()), None)
    # Due by a day: over once that day is ("by December 10th, she wants to revisit next year"
    # was open until the end of next year).
    valid_to = plan_until(at, [due_day] if due_day else ahead)
    if standing:
        keys, words = situation_cues(sent.text)
        named = [e.name for mm in sent.mentions if (e := reg.get(mm.key)) is not None and not e.speaker]
        return ForesightDraft(text=ftext, trigger=_trigger(keys or ["rules"], [*named, *words]), turn_ids=[t.turn.id],
                              valid_from=at, valid_to=None, kind="constraint")
    return ForesightDraft(
        text=ftext,
        trigger=_plan_trigger(sent, reg, ahead, deadline),
        turn_ids=[t.turn.id],
        valid_from=at,
        valid_to=valid_to,
        kind="deadline" if due else "plan",
    )


def _plan_trigger(sent: _Sentence, reg: _Registry, ahead: list, deadline: bool) -> str:
    """What a plan surfaces for: its situations, its days, whom it names and its words."""
    keys = []
    for w in _WORD.findall(_cue_text(sent.text).lower()):
        for k in lx.SITUATION_CUES.get(w, ()):
            if k not in keys:
                keys.append(k)
    if deadline and "schedule" not in keys:
        keys.insert(0, "schedule")
    if not keys:
        keys = ["schedule"]
    extra = [absolute_text(d) for d in ahead[:2]]
    for mm in sent.mentions:
        ent = reg.get(mm.key)
        if ent and not ent.speaker:
            extra.append(ent.name)
    extra += _content_words(_unplace(sent.s1), 6)
    return _trigger(keys, extra)


def day_plan(sent: _Sentence, reg: _Registry, text: str, day: str) -> ForesightDraft | None:
    """The plan of a thing's day ahead, said as its value and read as no plan ("And the dress
    fitting moved again! It's 23 January now": its "date is" fact, told with the sentence before;
    the plan of the day before stayed the only one). `text`: that fact's; `day`: its ISO day."""
    ahead = [d for d in sent.dates if d.direction in ("future", "present") and d.start.isoformat() == day]
    if not ahead or (all(d.direction == "present" for d in ahead) and tense_of(sent.text) == "past"):
        return None  # ("The AGM tonight voted the fee up": over, no plan)
    return ForesightDraft(text=text, trigger=_plan_trigger(sent, reg, ahead, False), turn_ids=[sent.t.turn.id],
                          valid_from=sent.t.at, valid_to=plan_until(sent.t.at, ahead), kind="plan")


# A day said alone after a suggestion in the same turn: "Let's just do it at the Castle Park clubhouse
# then. Sat 12 Dec, 3pm" (the party's new day and place were no plan: the day's sentence says no more).
_SUGGESTED = re.compile(r"^(?:(?:ok|okay|argh|right|so|fine|then)[,.!]*\s+)*(?:let's|let\s+us|we'll|we\s+will|"
                        r"we're\s+going\s+to|how\s+about|what\s+about|why\s+don't\s+we)\b", _I)
_DAY_ALONE = re.compile(r"^[\s,.!-]*(?:(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s+)?"
                        r"(?:\x00\d+\x00[\s,.!-]*)+(?:(?:at\s+)?\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)?|noon|midday)?"
                        r"[\s,.!]*$", _I)


def suggested_day_plan(sent: _Sentence, before: _Sentence | None, reg: _Registry) -> ForesightDraft | None:
    """The plan of a day said alone right after a suggestion in the same turn: the two as one."""
    ahead = [d for d in sent.dates if d.direction in ("future", "present")]
    if (before is None or before.t is not sent.t or not ahead or not _DAY_ALONE.match(sent.s1)
            or not _SUGGESTED.match(before.raw.strip())):
        return None
    voice = _Voice(sent.t.speaker, sent.t.other, sent.companion)
    said = _fill(rewrite(before.s1, voice), before.rendered).strip().rstrip(" .!?")
    day = _fill(sent.s1, sent.rendered).strip().strip(" ,.!")
    text = _clip(f"{said[:1].upper()}{said[1:]}, {day}", MAX_TEXT_CHARS) + "."
    return ForesightDraft(text=text, trigger=_plan_trigger(before, reg, ahead, False), turn_ids=[sent.t.turn.id],
                          valid_from=sent.t.at, valid_to=plan_until(sent.t.at, ahead), kind="plan")
