"""Prompt text for the `llm` extractor, kept apart from the code that sends it.

The turns go to the model as JSON Lines (one object per turn), so any text a speaker wrote --
newlines, brackets, quotes -- stays inside its own line and cannot pass for another turn.
"""
from __future__ import annotations

# Predicates that hold one current value per subject: a newer fact replaces the older one.
# The prompt asks for exactly these spellings; the extractor maps common variants onto them.
SINGLE_VALUED_PREDICATES: tuple[str, ...] = (
    "lives in",
    "works at",
    "job is",
    "relationship status is",
)

ENTITY_TYPES: tuple[str, ...] = ("person", "place", "organization", "project", "thing", "time")
ENTITY_ROLES: tuple[str, ...] = ("subject", "object", "mentioned")
FORESIGHT_KINDS: tuple[str, ...] = ("plan", "constraint", "deadline")

# The name the strict JSON schema is sent under (a-z, 0-9, _ and -, at most 64 characters).
EXTRACTION_SCHEMA_NAME = "engram_extraction"

EXTRACTION_SYSTEM_PROMPT = """\
You turn one episode of a conversation into long-term memories for an AI assistant's knowledge \
graph. Reply with one JSON object and nothing else: no prose, no code fences.

The episode comes as turns in time order, one JSON object per line, with "turn_id", "time" \
(ISO 8601, when the turn was written), "speaker", "role" and "text".

The JSON object you reply with:
{
  "title": "a short title for the episode, at most 10 words",
  "summary": "2-4 sentences in the third person that name the speakers and use absolute dates",
  "keywords": ["up to 10 words or short phrases someone might later search for"],
  "importance": 0.0-1.0, how much the episode matters for remembering these people \
(small talk 0.1; preferences, plans, relationships, work 0.5; life events, health, \
commitments 0.8-1.0),
  "entities": [{"name": "...", "type": "person|place|organization|project|thing|time", \
"aliases": ["other names used for it"]}],
  "facts": [{"subject": "...", "predicate": "...", "object": "...", "text": "...", \
"confidence": 0.0-1.0, "valid_from": "YYYY-MM-DD or null", "event_date": "YYYY-MM-DD or null", \
"turn_ids": ["..."], "entities": [{"name": "...", "role": "subject|object|mentioned"}], \
"single_valued": true|false, "ends": true|false}],
  "foresights": [{"text": "...", "trigger": "...", "kind": "plan|constraint|deadline", \
"valid_from": "YYYY-MM-DD or null", "valid_to": "YYYY-MM-DD or null", "turn_ids": ["..."]}],
  "foresight_ends": [{"who": "...", "what": "...", "kind": "constraint|plan", "turn_ids": ["..."]}]
}

Rules:
1. People. First-person words (I, me, my, we, our) mean the speaker of that turn; "you" and \
"your" mean the person spoken to. Write names, never pronouns: "Caroline", not "I" or "she".
2. Dates. Resolve every relative date (yesterday, last week, next month, on Friday, two years \
ago) against the "time" of the turn that says it, and write it as an absolute date: YYYY-MM-DD, \
or YYYY-MM / YYYY when only the month or year is known. No text you write may keep \
"yesterday", "last week" or "next month": write "on 2023-05-07" instead.
3. Facts. One atomic fact per item, about people, places, things or events: what happened, \
what someone did, has, likes, believes, plans or is. Each "text" is one complete sentence in \
the third person that makes sense on its own, without the conversation: full names, absolute \
dates, no unresolved pronouns. Skip greetings and filler, and what the assistant merely \
suggests unless the user takes it up. "turn_ids" lists the turns that state or prove the fact, \
copied exactly. "event_date" is the day the fact's event happened or will happen, when the \
turns tell; "valid_from" is when the fact became true, when known; otherwise null. \
"confidence": stated plainly 0.9 or more, implied 0.5-0.7, guessed below 0.5. Predicates are \
short lowercase verb phrases: "likes", "has pet", "visited", "is allergic to".
4. Single-valued facts. Where someone lives, where they work, their job and their relationship \
status have one current value, and a newer value replaces the old. For these use exactly the \
predicates {single_valued}, with the value as the object, and set "single_valued": true. \
When one of these ends with no new value told (someone quit a job, moved out, no longer \
lives somewhere), write it with the same predicate, the old value as the object (or \
"unknown"), and "ends": true. Every other fact has "single_valued": false and "ends": false.
5. Entities. List each person, place, organization, project and notable thing the facts \
mention once, under its fullest name, with nicknames and other spellings as "aliases". A \
fact's "entities" names the entities it is about, spelled as in "entities", with their role.
6. Foresight: what should change the assistant's behaviour later. Plans and intentions (kind \
"plan"), deadlines and appointments (kind "deadline"), standing constraints such as allergies, \
diets, health conditions, strong dislikes, house rules or what the user tells the assistant \
always or never to do ("always book aisle seats", "never schedule meetings on Fridays") (kind \
"constraint"); a reminder asked for ("remind me to call the dentist tomorrow") is a plan until \
its day. "text" states it \
in the third person with absolute dates and begins with the name of whom it concerns \
("Melanie is allergic to peanuts", not "Peanut allergy (Melanie)"). "trigger" lists the \
situations in which it matters, in the words a later question would use even when that \
question shares no word with the foresight: a peanut allergy -> "restaurants, eating out, \
food, cooking, recipes, snacks, baking, ordering dinner"; a trip to Paris in June -> "travel, \
flights, hotels, packing, weather, June plans, France". "valid_from" and "valid_to" bound the \
window in which it matters: a plan from when it is made until the day it happens, a deadline \
until its date. A standing constraint has no end: "valid_to": null.
7. Foresight that ends. When a turn says that a constraint or plan no longer holds (someone \
is not allergic any more, is no longer vegan, got over a fear, eats meat again; a trip or \
appointment was cancelled or called off; a to-do was done: the passport renewed, the form \
sent; the user takes back an instruction: "forget what I said about aisle seats"), list it in \
"foresight_ends": "who" names the person \
as a foresight's text would ("Melanie"), "what" gives the words that name what ended (the \
allergen, the diet, the fear, the trip's place or the event: "peanuts", "vegan", "Tokyo"), \
"kind" is "constraint" or "plan". Do not also write it as a foresight.
8. Use only what the turns say: invent no facts, names or dates. If nothing is worth \
remembering, return empty lists.
""".replace("{single_valued}", ", ".join(f'"{p}"' for p in SINGLE_VALUED_PREDICATES))

# Filled with str.format: the turns are JSON Lines already, so their braces never meet format().
EXTRACTION_USER_TEMPLATE = """\
Speakers: {speakers}
Episode: {started_at} to {ended_at}{known}

<turns>
{turns}
</turns>

Extract the memories of these turns as one JSON object."""

# Added to the user message when the turns name entities of earlier episodes, so that "Mel"
# stays "Melanie Hart" and "Tom" a person across sessions.
KNOWN_NAMES_LINE = "\nKnown from earlier in this conversation (write these names the same way): {names}"
