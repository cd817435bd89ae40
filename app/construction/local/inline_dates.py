"""Dates written inline as absolute dates, and the tense a sentence is in."""
from __future__ import annotations

import re
from typing import Callable

from app.construction import lexicon as lx
from app.construction.dates import SOON, DateMention, absolute_text, inline_text


_PREP_BEFORE = re.compile(
    r"\b(on|in|at|by|since|until|till|to|during|over|for|from|before|after|around|through|of|"
    r"starting|between)\s+$", re.IGNORECASE)
# "on the tuesday" of a Tuesday a date said names: "on 2026-12-08 (tuesday)", not "on the 2026-12-08 (tuesday)"
_PREP_THE_BEFORE = re.compile(r"\b(on|for|by|until|till|from|before|after)\s+the\s+$", re.IGNORECASE)
_DET_BEFORE = re.compile(r"\b(?:the|a|an|that|this|our|my|your|their|his|her)\s+$", re.IGNORECASE)
_WEEKDAY_BEFORE = re.compile(rf"\b(?:{lx.WEEKDAY_ALT})\.?,?\s+$", re.IGNORECASE)
_PAST_HINT = re.compile(
    # ("met" in lower case: the "Met Office" tells no past)
    r"\b(?:was|were|went|did|didn't|did\s+not|wasn't|weren't|had|came|saw|(?-i:met)|took|told|ago|yesterday|used to|"
    r"died|passed\s+away|"  # ("Dad passed away on the 28th of August and we're trying to ...": last August)
    # (since a time, not the "since" of why: "since Sam Okafor starts with us on 16 November" is ahead)
    r"since(?=\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|then|"
    r"christmas|easter|childhood|birth|school|uni|college|forever|ages|i\s+was|we\s+were))|"
    r"won(?!['’]t)|lost|drew|beat|"  # ("We beat Oakwood 3-1 on Saturday": the match gone by; "won't" is ahead)
    r"last(?!\s+(?:day|days|time|one|ones|minute|chance|name|thing|date|stop|payment|instal+ment)\b))\b",
    re.IGNORECASE)  # ("their last day is 30 November": no past)
# Weaker: a verb in -ed, but not one of a state ("is closed", "can be signed") or a thing's ("a
# revised price sheet"), nor a word of acknowledgement ("Got it, ...", "..., noted").
_WEAK_PAST_HINT = re.compile(
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bam\s)(?<!\bbe\s)(?<!\bget\s)(?<!\bgets\s)(?<!'s\s)(?<!'re\s)"
    r"(?<!\ba\s)(?<!\ban\s)(?<!\bthe\s)(?<!\bmy\s)(?<!\bour\s)(?<!\byour\s)"  # "a revised price sheet"
    r"(?<!\bis\snow\s)(?<!'s\snow\s)(?<!\bare\snow\s)"  # ("the camera body is now expected back October 14")
    # ("playtest 2 done (saturday)"; not "pruning half done")
    r"\b(?:got(?!\s+it\b)|made|said|visited|paid|sent|sold|bought|brought|spent|"
    # (past forms not in -ed: "the milk ran out on Monday", said on a Wednesday)
    r"ran|broke|gave|found|wrote|rang|drove|flew|began|forgot|"
    r"(?<!half\s)(?<!nearly\s)(?<!almost\s)(?<!not\s)(?<!n't\s)done|"
    r"(?!noted\b)\w{3,}ed)\b", re.IGNORECASE)
# Words in -ed of a commitment, which a day it is due by follows: "I promised Laura the
# questionnaire by Friday" is ahead, "it got to £2,400 by December" is not.
_COMMITTED = re.compile(r"\b(?:promised|agreed|committed|asked|wanted|needed|expected|said|told|emailed|texted|"
                        r"offered|quoted|proposed)\b", re.IGNORECASE)
# What was promised for a day: "Halden promised the remaining €1,800 for early December" (said in
# November: this December, not the last).
_PROMISED_FOR_HINT = re.compile(
    r"\b(?:promised|agreed|committed|pledged|guaranteed)\b[^.;!?]{0,60}?\b(?:for|by|before|on|in)\s+(?:the\s+)?"
    r"(?:(?:early|mid|late|end\s+of|start\s+of|beginning\s+of)[\s-]+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|next|tomorrow)", re.IGNORECASE)
# A day something is due by ("the questionnaire by Friday", said on a Tuesday): ahead, unless the
# sentence is plainly in the past ("I had it done by Friday").
_BY_DATE_HINT = re.compile(
    r"\b(?:by|before|no\s+later\s+than)\s+(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?:next\s+|this\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|tomorrow|week|month)",
    re.IGNORECASE)
_FUTURE_HINT = re.compile(
    r"\b(?:will|'ll|going to|gonna|plan|plans|planning|next|tomorrow|upcoming|soon|hope to|want to|"
    # a hope ("first rehearsal with Kieran on Thursday, fingers crossed": the Thursday ahead)
    r"fingers\s+crossed|wish\s+(?:me|us)\s+luck|"
    # a day that would suit ("she said Sunday would suit her best", said on a Thursday: the coming one)
    r"would\s+(?:suit|work|be\s+(?:best|better|fine|good|ideal))|suits\s+(?:me|her|him|us|them)\b|"
    # a day one can or cannot do ("Dave just texted, he can't do Tuesday, a job ran over": the coming one)
    r"(?:can(?:'t|not|\s+not)?|won't\s+be\s+able\s+to)\s+(?:do|make|manage)|"
    # ("2 nights minimum from now till March")
    r"from\s+now\s+(?:on\s+)?(?:till|until|til|to)|"
    # what is put forward ("let's cancel the launch social on the 4th, only 6 people said they'd come": ahead)
    r"let'?s|"
    # a booking on a condition ("I talked PowerHire down to £48 a day if we book the generator for every weekend in
    # December", said in November: this December)
    r"if\s+(?:we|I|you|they|he|she)\s+(?:\w+\s+)?(?:book|hire|reserve|rent|order)\b|"
    # ("should be delivered on Thursday", "is expected to arrive on Monday"; not "should have")
    # ("should come monday", said of an order: not "should have", which looks back)
    r"should\s+(?!have\b)[a-z]+|(?:is|are)\s+expected\s+to|"
    # what someone said they would do ("Tomasz said he'd take over from 19 October"; not "he'd been",
    # "he'd had", "she'd left", which look back; nor "would", as often a thought of the past: "Nate
    # would have never thought he would be getting a third turtle")
    r"\b(?:he|she|they|we|i|you)['’]d\s+(?!(?:have|had|been|left|gone|done|seen|made|taken|given|got|"
    r"gotten|come|run|sent|paid|said|told|met|found|bought|brought|thought|lost|won|spent|forgotten|known|"
    r"heard|written|read|kept|put|set|sold|held|eaten|begun|become|felt|slept|built|broken|chosen|driven|"
    r"flown|grown|hidden|ridden|shown|spoken|stolen|swum|woken|worn)\b|[a-z]+ed\b)[a-z]+|"
    r"about to|can't wait|looking forward|scheduled|(?<!was\s)(?<!were\s)due|signed up|booked|registered|reserved|"
    # ("Mei signed us both up for the half marathon in March")
    r"signed\s+(?:me|us|him|her|them|[A-Z][\w'-]*)(?:\s+(?:both|all))?\s+up|"
    r"bought tickets|got tickets|enrolled|"
    # ("the rest waits till february")
    r"(?:wait|waits|waiting|can\s+wait|will\s+wait)\s+(?:till|until|til)|"
    r"waits)\b|"
    # a day something was moved to, a thing someone was asked to do ("our booking moved to 24
    # November", "Dr Lin has asked me to lead the revision evening on 10 December"): ahead
    # (a calendar day: "the scan got moved to Friday, then I was wiped out" is last Friday's)
    r"\b(?:moved|pushed|postponed|rescheduled|shifted|changed|brought\s+forward)\s+(?:back\s+)?(?:to|until)\s+"
    r"(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|"
    r"\basked\s+(?:me|us|him|her|them)\s+to\b|"
    # a day's event to be moved or called off ("Kingsmead have asked to move Sunday's game", said on
    # a Friday): the Sunday ahead
    r"\b(?:move|moving|reschedule|rescheduling|cancel|cancell?ing|postpone|postponing|push|pushing|"
    r"rearrange|rearranging)\s+(?:the\s+|our\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day's\s|"
    # time off asked for ("Marta asked for 18 December off", said in November): ahead
    r"\b(?:asked|asking|asks|requested|booked|booking|wants|needs|taking|takes)\s+(?:for\s+)?(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[^.;!?,]{0,24}?\boff\b|"
    # "The test centre cancelled the 14 November session": what is called off was ahead
    r"\b(?:cancell?ed|called\s+off|postponed|scrapped)\s+(?:the|our|my|his|her|their|your)\s+"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)", re.IGNORECASE)
# Getting ready for something: it lies ahead, though the sentence is in the past ("I just
# started training for the Berlin marathon in September", said in March: this September).
_AHEAD_HINT = re.compile(
    r"\b(?:training|preparing|prepare|prepares|getting ready|practi[sc]ing|saving(?: up)?|"
    r"counting down)\s+(?:for|to)\b"
    # ("my flights got changed, I'm now away 26 Oct to 8 Nov": away from now on)
    r"|\b(?:I'm|I\s+am|we're|we\s+are|she's|he's|they're)\s+now\s+(?:away|off|back|out)\b", re.IGNORECASE)
# A timetable's present ("My sister visits on December 14th", "Rex needs his jab on the 18th",
# "I start at Edison Family Clinic as a day-shift nurse manager on January 4th", "He moves in
# on November 23rd"): the day lies ahead.
_SCHEDULE_HINT = re.compile(
    r"\b(?:visits?|arrives?|lands?|starts?|begins?|leaves?|fl(?:y|ies)|returns?|opens?|comes?|needs?|"
    # ("the retainer ends on 31 October"; "Kev said the gas safety certificate runs out on 9 January", said in November)
    r"moves?\s+in|ends|expires|finishes|runs\s+out|lapses|renews)\s+(?:[\w'-]+\s+){0,10}?on\b|"
    # whether one is in on a day, said now ("Dr Sandhu isn't in on Thursday", said on a Monday: the coming one)
    r"(?:\b(?:is|are|isn't|aren't|is\s+not|are\s+not)|'s|'re)\s+(?:in|off|away|around|available|free|working|back)\s+"
    r"(?:on|until|till)\b|"
    # "My real A-level exams start in June": a month of a timetable, ahead
    r"\b(?:starts?|begins?|opens?|arrives?)\s+in\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|"
    # "her onsite is on 1 October", "the viewing's set for Friday": a thing's day, ahead
    r"\b(?:is|are|'s)\s+(?:now\s+|still\s+)?(?:(?:on|set\s+for|scheduled\s+for|booked\s+for|planned\s+for)\s+)?"
    r"(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "asked to stay until 5 December", "still starting in March": ahead
    r"\bto\s+(?:stay|remain|wait|keep\s+it|be\s+there)\b[^.;!?]{0,20}?\b(?:until|till)\s|"
    r"\b(?:starting|beginning|effective)\s+(?:in|on|from)\s|"
    r"\b(?:has|have|'s\s+got|got)\s+until\s|"  # ("she has until Tuesday 1 December to decide")
    # "Rahul confirmed the pilot starts October 6": a timetable's present before its day
    r"\b(?:starts|begins|opens|arrives|lands|launches|kicks\s+off|goes\s+live)\s+(?:on\s+)?(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "Harbor is in a procurement freeze until March": a state now that lasts until a day ahead
    # ("the MOT doesn't run out till February", said in October)
    r"\b(?:is|are|am|'s|'re|'m|stays|remains|runs|lasts|holds|doesn't|don't|does\s+not|do\s+not|isn't|aren't)\s"
    r"[^.;!?]{0,40}?\b(?:until|till)\s+(?:the\s+)?"
    r"(?:end\s+of\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "I can get budget approved for March": what can be done is ahead
    r"\b(?:can|cannot|can't)\s+(?!be\b)(?:\w+\s+){1,6}?(?:for|in|on|by)\s+(?:the\s+)?"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "she can wait for the docs until 8 January", said in November: ahead
    r"\b(?:can|could|will|'ll)\s+wait\b[^.;!?]{0,30}?\b(?:until|till|for)\s+(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|next)", re.IGNORECASE)
# A day with its hour and no verb ("onsite on 6 October at 3pm"): an appointment, ahead.
_DAY_AT_HOUR = re.compile(r"\bat\s+\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)", re.IGNORECASE)
# A value's change from a day, told in the present: "Flat 2's rent goes up to £1,150 from
# December", "the new price applies from 1 March": ahead.
_CHANGES_FROM_HINT = re.compile(
    r"\b(?:go(?:es|ing)?\s+(?:up|down)(?:\s+again)?|increas(?:es?|ing)|decreas(?:es?|ing)|ris(?:es?|ing)|"
    r"drop(?:s|ping)?|chang(?:es?|ing)|kicks?\s+in|takes?\s+effect|"
    # (its new amount said between, by whom: "the rent is going up :( Greenhill says £1,240 from 1 December")
    r"appl(?:y|ies))\b(?:\s+[\w'£$€,.:()-]+){0,7}?\s+(?:from|starting|as\s+of|effective)\s+(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|next)|"
    # ... or a rate agreed from a day: "we agreed $750 a month from January", said in November
    r"[$£€]\s?\d[\d,.]*k?\s+(?:a|an|per)\s+(?:month|year|week|hour|night|day|session)\s+"
    r"(?:from|starting|as\s+of|effective)\s+(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|next)|"
    # ... or the day first: "so from November our weekly fee drops to £1,285" (said in October: it had been last
    # November, from "approved")
    r"\b(?:from|starting|as\s+of)\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|next)[^.;!?]{0,40}?"
    r"\b(?:go(?:es)?\s+(?:up|down)|drops?|rises?|increases?|decreases?|changes?|becomes?|will\s+be)\b", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")  # a rendered date's day: "on 2026-12-16 (December 16)"


_PROGRESSIVE_HINT = re.compile(r"(?:\b(?:am|are|is)|'m|'re|'s)\s+(?:\w+\s+)?\w+ing\b", re.IGNORECASE)


# A date something was moved to ("launch slipped to November 2nd", "the demo was moved to
# Friday"): no one moves a thing into the past, whatever the verb's tense.
_MOVED_TO_HINT = re.compile(
    # (a verb's plain form too: "Priya asked to move the kickoff to December 10")
    rf"\b(?:{lx.MOVED_VERBS}|slips|slip|brought|pulled|move|push|postpone|delay|reschedule|bump|shift|extend|"
    r"bring|pull)\s+"
    # "moved the demo to", "moved Tom's onsite to"
    # ("They've moved us to the 31st May": whom, said 10 May, had been May gone by)
    r"(?:it\s+|them\s+|us\s+|me\s+|him\s+|(?:the|our|my|his|her|their|this|that|[A-Z][\w-]*'s)\s+(?:[\w'-]+\s+){0,4}?)?"
    r"(?:back\s+|forward\s+|out\s+|up\s+)?(?:from\s+(?:[\w'-]+\s+){1,4}?)?"
    r"(?:(?:by\s+)?(?:a|an|one|two|three|four|\d+)\s+(?:days?|weeks?|months?)\s+)?"  # ("pushed back by two weeks to")
    r"(?:to|until|till)\s+(?:the\s+)?"
    r"(?:next\s+|following\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|tomorrow)", re.IGNORECASE)

# A day that is a condition's or a schedule's now ("15% off if they sign before December 1",
# "QBR moved again, it's now December 3"): a condition is met ahead, a new day is ahead.
_IF_BY_HINT = re.compile(
    r"\bif\b(?:\s+[\w'-]+){1,8}?\s+(?:by|before|until|no\s+later\s+than)\s+(?:the\s+)?(?:end\s+of\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    r"\b(?:it's|it\s+is|is|'s)\s+now\s+(?:on\s+|set\s+for\s+|for\s+)?(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # what would be done by a day, told: "we told Marcus QL-140 would be fixed by the 12th"
    r"\b(?:would|will|'ll|'d)\s+(?:be\s+)?\w+\s+(?:by|before|until)\s+(?:the\s+)?(?:end\s+of\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)", re.IGNORECASE)

# A day arranged for ("Keyhouse confirmed 4 December for the inspection", "we booked the van for
# Friday", "offered us 3.89%, completing on 1 December", "they offered 16 to 22 November"): what
# is arranged lies ahead, whatever the verb's tense (each had read last year's December).
_ARRANGED_FOR_HINT = re.compile(
    r"\b(?:confirmed|booked|scheduled|arranged|agreed|offered|proposed|pencill?ed\s+in|completing|completion)\s+"
    r"(?:(?:it|them|us|me|the\s+[\w-]+|a\s+[\w-]+)\s+)?(?:for\s+|on\s+)?(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "Priya got us two more shows: The Haunt on Friday 20 November": what was got is ahead
    r"\b(?:got|landed|secured|booked|added)\s+(?:us|me|them|him|her)\s+(?:[\w-]+\s+){0,3}"
    r"(?:shows?|gigs?|dates?|slots?|bookings?|appointments?|tickets?|tables?|rooms?|interviews?)\b|"
    # "she offered £700 for a headline in April", "Priya wants us back in the spring" (said in
    # November: last April and last spring had been read, from "offered")
    r"\b(?:offered|offers|offering)\s+(?:us\s+|me\s+)?[£$€]\s?\d[\d,.]*k?\s+(?:for\s+(?:a|an|the)\s+[\w-]+\s+)?"
    r"(?:in|on|for)\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|"
    r"spring|summer|autumn|fall|winter)|"
    r"\b(?:want|wants|wanted|invited|asked)\s+(?:us|me|them|him|her)\s+back\b|"
    # "cricket club said yes for the 19th!!", "I got an extension to 2 December" (said on 27 October
    # and 29 November: the 19th gone by, and 2025's December, had been read)
    r"\bsaid\s+yes\s+(?:to\s+|for\s+)(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|"
    r"thu|fri|sat|sun)|\b(?:an?\s+)?extension\s+(?:to|until|till)\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|"
    r"sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "booked the ATA certification exam!! October 17", "rebooked it for November 14", "confirmed the
    # website job: ..., deadline November 20" (said in September: each had read 2025's)
    r"\b(?:booked|re-?booked|re-?scheduled|registered\s+for|signed\s+up\s+for|reserved|confirmed|entered)\s+"
    r"(?:\S+\s+){0,8}?(?:for\s+|on\s+|deadline\s+|due\s+)?(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "we settled on €0.13 per word from November", "she's my accountant from October 1"
    r"\b(?:settled|agreed)\s+on\b[^;!?]{0,40}?\b(?:from|starting|as\s+of)\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    r"(?:\b(?:is|are)|'s|'re)\s+(?:my|our|the|his|her|their)\s+(?:new\s+)?[\w-]+(?:\s+[\w-]+)?\s+"
    r"(?:from|starting|as\s+of)\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # a deadline named, and what holds until a day ("Lindqvist said Jonas Ek covers for her until March")
    r"\bdeadline\s+(?:on\s+)?(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    r"\b(?:covers|stays|runs|lasts|continues|holds)\b[^.;!?]{0,30}?\b(?:until|till|through)\s+(?:the\s+)?"
    r"(?:end\s+of\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)|"
    # "they said November 27 is ok for everything": a day agreed to
    r"\b(?:said|says)\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[^.;!?]{0,20}?\b(?:is|was|works|worked|suits)\s+"
    r"(?:ok|okay|fine|good|great|perfect|for\s+them|for\s+us)\b", re.IGNORECASE)

# A day asked for or called off ("the Fletchers asked to move their stay, so 26 Sept to 3 Oct", "a Mr
# Ellis asked if he can bring 2 dogs 27 Nov - 4 Dec", "The Barretts have cancelled their booking, 2-9
# October"): the asking is past, the day most often not: one just ahead (each had read last year's).
_ASKED_FOR_HINT = re.compile(r"\b(?:asked|asking|asks|wanted|wants)\s+(?:(?:us|me|him|her|them)\s+)?(?:to|if|whether)\b|"
                             r"\b(?:cancell?ed|called\s+off)\b", re.IGNORECASE)
# ... or a change told done from a day ("Livery went up to £145 a week from December", said in
# November): a change is most often told as it is announced, a day or month just ahead.
_CHANGED_FROM_HINT = re.compile(
    r"\b(?:went\s+(?:up|down)|rose|increased|decreased|dropped|changed|(?:was|were|got)\s+(?:raised|cut|lowered))\b"
    r"(?:\s+[\w'£$€,.:()-]+){0,7}?\s+(?:from|starting|as\s+of|effective)\s+(?:the\s+)?"
    r"(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|next)", re.IGNORECASE)
# ... or what must be done by a day: "they want the photos updated before January" (said in
# November: it had been January gone by, from "updated").
_WANTED_BY_HINT = re.compile(
    r"\b(?:want|wants|wanted|need|needs|needed|has\s+to|have\s+to|must)\b[^.;!?]{0,40}?\b(?:by|before|no\s+later\s+than)\s+"
    r"(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)",
    re.IGNORECASE)

# Words that put a day said with it behind: none of the above then holds.
_GONE_BY = re.compile(r"\b(?:ago|yesterday|last)\b", re.IGNORECASE)

_BEFORE_MOVED = re.compile(rf"\b(?:was|were|got|has\s+been|had\s+been|have\s+been)\s+(?=(?:{lx.MOVED_VERBS}|"
                           r"brought|pulled)\b)", re.IGNORECASE)


# A promise someone made, told back to them: "You said you'd follow up by Friday", "he promised
# he would call" (foresight.py makes no plan of it).
TOLD_BACK = (r"\b(?:you|he|she|they)\s+(?:said|promised|told\s+(?:me|us))\s+(?:that\s+)?"
             r"(?:you|he|she|they)(?:['’]d|\s+would|\s+will|['’]ll)\b")
# ... told back as broken: "You said you'd follow up by Friday but I heard nothing" (said on the
# Monday after: last Friday).
_PROMISE_MISSED = re.compile(
    TOLD_BACK + r"[^.;!?]*\b(?:heard\s+nothing|nothing\s+(?:came|arrived|happened)|never|"
    r"still\s+(?:no|nothing|haven't|hasn't)|didn't|did\s+not|no\s+(?:word|news|call|email|reply))", re.IGNORECASE)


_FROM_DAY = re.compile(r"\b(?:from|starting|as\s+of)\s+(?:the\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                       r"(?![^,;]*\bto\b)", re.IGNORECASE)
# Until a day: one just ahead is that one ("Rhys said 15kg max till January", said in December: it had been
# January gone by; "I lived in Leeds until March", said in October, is the March gone by).
_UNTIL_HINT = re.compile(r"\b(?:until|till|til)\s+(?:the\s+)?(?:end\s+of\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
                         r"nov|dec|mon|tue|wed|thu|fri|sat|sun|next|the\s+new\s+year)", re.IGNORECASE)


# Words in a past form that tell no past: a name given ("a woman called Priya wants the sofa, collecting 5
# December"), a day reported as what was said ("they said mid January", said in October: the coming one), what
# must be done ("I've got to get it before the 11th"), what one has.
_NO_TENSE = re.compile(r"\b(?:(?:someone|somebody|(?:a|an|the)\s+[a-z]+)\s+(?:called|named)(?=\s+(?:the\s+)?(?-i:[A-Z]))|"
                       r"(?:said|says|told\s+(?:me|us|him|her|them))(?:\s+(?:it'?s|it\s+is|it'?ll\s+be|it\s+will\s+be))?"
                       r"(?=\s+(?:(?:early|mid|late|the\s+end\s+of|end\s+of)[\s-]+)?(?:the\s+)?"
                       # ("when are they due?" "Bytes said Friday", said on a Tuesday: the coming one)
                       r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|\d))|"
                       r"(?:'ve|have|has|'s)\s+got\s+to|"
                       # what one has ("we've got an onboarding call Thursday at 11am", said on a Monday: the coming one)
                       r"(?:'ve|have|has|'s)\s+got(?=\s+(?:a|an|another|the|my|our|his|her|their|your|some|two|three)\s))\b",
                       re.IGNORECASE)


def tense_of(s: str) -> str | None:
    """'future', 'past', 'soon' (dates.SOON) or None: how to read a date phrase whose year or week is open."""
    told = _NO_TENSE.sub(" ", s)  # (the words of a past read without those that tell none)
    if _PROMISE_MISSED.search(s):
        return "past"
    if _FUTURE_HINT.search(s) or _IF_BY_HINT.search(s) or _PROMISED_FOR_HINT.search(s):
        return "future"
    if _MOVED_TO_HINT.search(s):
        # "The demo was moved to Friday": ahead, unless the rest is told in the past ("the scan
        # got moved to Friday, then I was wiped out").
        return "past" if _PAST_HINT.search(_MOVED_TO_HINT.sub(" ", _BEFORE_MOVED.sub(" ", s))) else "future"
    if _ARRANGED_FOR_HINT.search(s) and not _GONE_BY.search(s):
        return "future"
    if _WANTED_BY_HINT.search(s) and not _GONE_BY.search(s):
        return "future"
    if (_ASKED_FOR_HINT.search(s) or _CHANGED_FROM_HINT.search(s)) and not _GONE_BY.search(s):
        return SOON
    if _PAST_HINT.search(told):
        return "past"
    if _AHEAD_HINT.search(s) or _SCHEDULE_HINT.search(s) or _CHANGES_FROM_HINT.search(s) or (
            _BY_DATE_HINT.search(s) and not _WEAK_PAST_HINT.search(_TARGET_BY.sub(" ", _COMMITTED.sub(" ", s)))):
        return "future"
    if _PROGRESSIVE_HINT.search(s):
        return "future"  # "We are expecting twins in December", "are getting married in August"
    if _UNTIL_HINT.search(s) and not _GONE_BY.search(s):
        # (told in no past, ahead however far: "Leave it at £38 till January", said in November, had been last
        # January; "I lived in Leeds until March" is the one gone by)
        # ... but a stay from a day till a day may be one gone by: "Porto from the 22nd until 3 Jan.")
        return SOON if _WEAK_PAST_HINT.search(told) or _FROM_WORD.search(s) else "future"
    if _WEAK_PAST_HINT.search(told):
        return "past"
    return None


# A state to be reached by a day, no one's doing yet: "demo build locked by Oct 12" (not "we
# locked it by Oct 12").
_TARGET_BY = re.compile(r"(?<![\w'])(?<!\bi\s)(?<!\bwe\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bthey\s)(?<!\byou\s)"
                        r"[a-z]{3,}ed\s+(?=by\s)", re.IGNORECASE)


# A day told as only guessed at, in no tense of the telling: "the receptionist said around the 25th of November"
# (said in October: not 2025's).
_GUESSED = re.compile(r"\b(?:told\s+(?:me|us)|said|says|reckons|thinks)\s+(?=(?:around|about|roughly|probably|maybe|"
                      r"likely|approximately)\s)", re.IGNORECASE)
# Where a sentence's clauses part: each may be told in a tense of its own.
_CLAUSE_CUT = re.compile(r"[,;:]\s+|\s+[-–—]\s+|\s+(?:but|though|although|whereas)\s+|"
                         # what was told, as its own clause: "Helen just told me it's 29 April not 22"
                         r"\b(?:told\s+(?:me|us)|said|says|confirmed)\s+(?:that\s+)?(?=it'?s\s|it\s+is\s)|"
                         # ... or a day only guessed at (_GUESSED)
                         + _GUESSED.pattern + "|"
                         r"\s+and\s+(?=(?:her|his|their|the|my|our|its|your)\s)|"
                         # "shipped yesterday and should be delivered on Thursday"
                         r"\s+and\s+(?=(?:should|will|would|shall|is\s+expected|is\s+due)\b)", re.IGNORECASE)


_FROM_BEFORE = re.compile(r"\bfrom\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?$", re.IGNORECASE)
# The day a new one replaces ("now due 14 October instead of 30 September", "Friday 26 February,
# not 29 January"): the nearest, whatever the tense the new one is read in (it had been 2027's).
_REPLACED_BEFORE = re.compile(r"\b(?:instead\s+of|rather\s+than|not)\s+(?:(?:on|the)\s+)?"
                              r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?$", re.IGNORECASE)
_REPLACED_WORD = re.compile(r"\b(?:instead\s+of|rather\s+than|not)\b", re.IGNORECASE)
# A price from a day ("I raised my day rate again, it's £450 from 1 November"): the nearest such day,
# whatever the tense ("raised": 2025's; read ahead, said on 6 November: 2027's).
_PRICE_FROM = re.compile(r"[£$€]\s?\d[\d,.]*k?\b[^.;!?]{0,40}?\b(?:from|starting|as\s+of|effective)\s+"
                         r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?(?:the\s+)?$", re.IGNORECASE)
_PRICE_FROM_WORD = re.compile(r"[£$€]\s?\d[^.;!?]{0,40}?\bfrom\b", re.IGNORECASE)
_FROM_WORD = re.compile(r"\bfrom\b", re.IGNORECASE)
_FROM_LEAD = re.compile(r"(?:from|starting|as\s+of|effective)\s+", re.IGNORECASE)


_THEN = re.compile(r"\s*(?:and\s+)?(?:then|afterwards|after\s+that|so)\b", re.IGNORECASE)


# Who said it, told after what was said: "Sale of the house completes on 13 November, Gareth confirmed"
# (its day read as 2025's, the past of "confirmed").
_REPORTED_TAIL = re.compile(r"[,;]\s*(?:(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?|he|she|they|we|i)\s+(?:just\s+)?"
                            r"(?:confirmed|said|says|told\s+(?:me|us|him|her|them)|mentioned|reckons|agreed)\s*[.!]*$",
                            re.IGNORECASE)


# A day's clause told as what it is now ("it's 29 April"), and a move said before it (tense_at).
_NOW_IS = re.compile(r"it'?s\s|it\s+is\s", re.I)
_MOVED_WORD = re.compile(rf"\b(?:{lx.MOVED_VERBS})\b", re.I)


# A day of a month that is what a present verb says of, itself: "the 26th June clashes with a diocese
# thing", "the 3rd works for us" (said in November, the June ahead, not the one gone by).
_DAY_SUBJECT = re.compile(rf"\b(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{lx.MONTH_ALT})|(?:{lx.MONTH_ALT})\s+"
                          r"\d{1,2}(?:st|nd|rd|th)?)\s+(?:clashes|works|suits|isn't|doesn't|won't|is\s+(?:fine|good|"
                          r"ok|okay|free|no\s+good|out|tricky|difficult))\b", re.I)


def tense_at(s: str) -> str | None | Callable[[int], str | None]:
    """The tense to read a date phrase of `s` in: that of the clause it stands in, else the
    sentence's ("Engineering missed the Nov 12 date, the new promise is a fix by December 10":
    the first date is past, the second ahead); a day a present verb is said of, ahead."""
    told = _clause_tense_at(s)
    ahead = [m.start() for m in _DAY_SUBJECT.finditer(s)]
    if not ahead:
        return told
    return lambda pos: "future" if any(a <= pos <= a + 4 for a in ahead) else (told(pos) if callable(told) else told)


def _clause_tense_at(s: str) -> str | None | Callable[[int], str | None]:
    """tense_at, of the clauses."""
    if (told := _REPORTED_TAIL.search(s)) is not None and told.start() > 0:
        s = s[:told.start()]  # (positions before it are the same)
    whole = tense_of(s)
    if _PROMISE_MISSED.search(s):
        return whole  # (its day is the broken promise's, whatever the clause's own words)
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(s)]
    if not cuts and not (_MOVED_TO_HINT.search(s) and _FROM_WORD.search(s)) and not _REPLACED_WORD.search(s) \
            and not _PRICE_FROM_WORD.search(s):
        return whole
    bounds = [0, *cuts, len(s) + 1]
    own: dict[int, str | None] = {}

    def at(pos: int) -> str | None:
        # (a phrase that opens with its "from": "happy to go up to £475 a month from November" had been read in
        # the past of "I've had the pay rise confirmed")
        past_from = pos + len(lead.group()) if (lead := _FROM_LEAD.match(s, pos)) else pos
        if _PRICE_FROM.search(s, max(0, past_from - 60), past_from) and _CHANGES_FROM_HINT.search(s):
            return "future"  # "the rent is going up, Greenhill says £1,240 from 1 December": ahead
        if _REPLACED_BEFORE.search(s, max(0, pos - 24), pos) or _PRICE_FROM.search(s, max(0, pos - 60), pos):
            return None
        if _FROM_BEFORE.search(s, max(0, pos - 16), pos) and _MOVED_TO_HINT.search(s):
            return None  # "moved Tom's onsite from 17 September to ...": the old day, the nearest
        i = next(k for k in range(len(bounds) - 1) if pos < bounds[k + 1])
        if i not in own:
            clause = s[bounds[i]:bounds[i + 1]]
            # A day moved to is read against the whole sentence ("the scan got moved to Friday,
            # then I was wiped out": past), as tense_of does.
            # ... and what is told after it as what came next, not before nor why ("it was supposed
            # to be this Saturday but we moved it to Oct 24, the build wasn't stable": ahead)
            after = s[bounds[i + 1]:] if i + 2 < len(bounds) else ""
            told = clause + (" " + after if _THEN.match(after) else "")
            own[i] = (None if i == 0 or tense_of(told) != "future" else "future") \
                if _MOVED_TO_HINT.search(clause) else tense_of(clause)
            if own[i] is None and _DAY_AT_HOUR.search(clause) and not _MOVED_TO_HINT.search(clause):
                own[i] = "future"
        if own[i] is None and i > 0 and _FROM_DAY.search(s, bounds[i], bounds[i + 1]):
            return SOON  # "..., so from 2nd Nov Isla's days become Mon, Wed and Thu": a start just ahead
        if own[i] is None and i > 0 and (_MOVED_WORD.search(s, 0, bounds[i])
                                          or _NOW_IS.match(s, bounds[i])):
            # a day after a move, in a clause of no tense of its own ("the poster session got moved
            # to the afternoon, 11 December 2-3:30pm"), or told as what is ("told me it's 29 April"):
            # the day it now is, not the past tense's
            return None
        if i > 0 and _GUESSED.search(s, max(0, bounds[i] - 12), bounds[i]):
            return own[i]
        return own[i] or whole
    return at


def _inline(m: DateMention, has_prep: bool) -> str:
    text = inline_text(m, has_preposition=has_prep)
    phrase = " ".join(m.phrase.split())
    absolute = absolute_text(m)
    if (absolute.casefold().startswith(phrase.casefold()) or _DEICTIC.fullmatch(phrase)) \
            and text.endswith(f" ({m.phrase})"):
        # "in May 2024 (May)" -> "in May 2024"; "on 2026-10-16 (today)" -> "on 2026-10-16": read
        # weeks later, "today" is no longer that day (a weekday or a month's name stays)
        text = text[: -len(m.phrase) - 3]
    return text


# Words whose day is the day they are said.
_DEICTIC = re.compile(r"(?:today|tonight|yesterday|tomorrow|this\s+(?:morning|afternoon|evening)|last\s+night|"
                      r"(?:the\s+)?day\s+(?:before\s+yesterday|after\s+tomorrow)|(?:next|last|this)\s+"
                      r"(?:week|month|year|weekend)|(?:this|next|last)\s+(?:coming\s+)?(?:week)?end)", re.IGNORECASE)


def _with_placeholders(s: str, mentions: list[DateMention],
                       spans: list[tuple[int, int]] | None = None) -> tuple[str, list[str]]:
    """`s` with each date phrase (and its preposition) replaced by \\x00i\\x00; the renderings.

    `spans`, when given, receives (end in `s`, shift) per replacement, to map positions."""
    out: list[str] = []
    rendered: list[str] = []
    pos = 0
    for m in mentions:
        if m.pos < pos:
            continue
        start = m.pos
        pm = _PREP_BEFORE.search(s, max(pos, m.pos - 12), m.pos) or (
            _PREP_THE_BEFORE.search(s, max(pos, m.pos - 16), m.pos) if m.phrase.strip().lower() in lx.WEEKDAYS else None)
        if pm:
            start = pm.start()
            if m.granularity == "span" and m.start != m.end:
                text = _inline(m, True)
            else:
                text = f"{pm.group(1)} {_inline(m, True)}"
        elif (_DET_BEFORE.search(s, max(pos, m.pos - 8), m.pos)
              or _WEEKDAY_BEFORE.search(s, max(pos, m.pos - 12), m.pos)
              or s.startswith("'s ", m.end_pos)):  # ("move Sunday's game": no "on ...'s game")
            # "the last Friday deploy": the day names a thing, no "on"; nor after its weekday
            # ("booked for Thursday 12 November" had read "for Thursday on 2026-11-12")
            text = _inline(m, True)
        else:
            text = _inline(m, False)
        out.append(s[pos:start])
        ph = f"\x00{len(rendered)}\x00"
        out.append(ph)
        rendered.append(text)
        if spans is not None:
            spans.append((m.end_pos, len(ph) - (m.end_pos - start)))
        pos = m.end_pos
    out.append(s[pos:])
    return "".join(out), rendered


def _fill(s: str, rendered: list[str]) -> str:
    return _PLACEHOLDER.sub(lambda m: rendered[int(m.group(1))], s)


def _unplace(s: str) -> str:
    s = _PLACEHOLDER.sub(" ", s)
    return " ".join(s.split())
