"""The `llm` extractor against an OpenAI-compatible server (the stub in llm_stub.py, over real HTTP)."""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest

from app.construction.extract_llm import EXTRACTION_JSON_SCHEMA, LLMExtractor
from app.construction.extractor import ExtractionError
from app.domain.models import EntityDraft, TurnRecord
from app.settings import Settings
from tests.llm_stub import OpenAIStub, StubReply

CEST = timezone(timedelta(hours=2))
T0 = datetime(2023, 5, 8, 13, 56, tzinfo=CEST)
TURNS = [
    TurnRecord(id="D1:1", conversation_id="conv-1", speaker="Caroline", user_id="u-caroline",
               role="user", content="I went to a LGBTQ support group yesterday and it was so powerful.",
               at=T0, seq=0),
    TurnRecord(id="D1:2", conversation_id="conv-1", speaker="Melanie", user_id=None, role="user",
               content="That's great! I'm allergic to peanuts, so let's skip the Thai place on Friday.",
               at=T0 + timedelta(minutes=1), seq=1),
    TurnRecord(id="D1:3", conversation_id="conv-1", speaker="Caroline", user_id="u-caroline",
               role="user", content="Sure. By the way, I moved to Boston last month.",
               at=T0 + timedelta(minutes=2), seq=2),
]
API_KEY = "sk-test-secret-123"


def reply(**overrides):
    """A well-formed extraction reply, as a model following the schema would write it."""
    body = {
        "title": "Caroline's support group",
        "summary": "On 2023-05-07 Caroline went to an LGBTQ support group. Melanie is allergic to peanuts.",
        "keywords": ["support group", "LGBTQ", "peanut allergy"],
        "importance": 0.8,
        "entities": [
            {"name": "Caroline", "type": "person", "aliases": ["Caro"]},
            {"name": "Melanie", "type": "person", "aliases": []},
            {"name": "Boston", "type": "place", "aliases": []},
        ],
        "facts": [
            {"subject": "Caroline", "predicate": "attended", "object": "LGBTQ support group",
             "text": "Caroline attended an LGBTQ support group on 2023-05-07.", "confidence": 0.95,
             "valid_from": None, "event_date": "2023-05-07", "turn_ids": ["D1:1"],
             "entities": [{"name": "Caroline", "role": "subject"}], "single_valued": False},
            {"subject": "Caroline", "predicate": "lives in", "object": "Boston",
             "text": "Caroline lives in Boston since April 2023.", "confidence": 0.9,
             "valid_from": "2023-04", "event_date": None, "turn_ids": ["D1:3"],
             "entities": [{"name": "Caro", "role": "subject"}, {"name": "Boston", "role": "object"}],
             "single_valued": True},
        ],
        "foresights": [
            {"text": "Melanie is allergic to peanuts.", "trigger": "restaurants, food, cooking, snacks",
             "kind": "constraint", "valid_from": None, "valid_to": None, "turn_ids": ["D1:2"]},
            {"text": "Caroline and Melanie will not eat at the Thai place on 2023-05-12.",
             "trigger": "dinner plans, Friday", "kind": "plan", "valid_from": "2023-05-08",
             "valid_to": "2023-05-12", "turn_ids": ["D1:2"]},
        ],
    }
    body.update(overrides)
    return body


class Sleeps(list):
    """Stands in for asyncio.sleep: records the backoff delays instead of waiting them out."""

    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def stub():
    with OpenAIStub() as s:
        yield s


@pytest.fixture
def sleeps():
    return Sleeps()


def llm_settings(stub: OpenAIStub, **overrides) -> Settings:
    values = stub.llm_settings(llm_api_key=API_KEY, llm_max_retries=3, llm_timeout_s=5.0)
    values.update(overrides)
    return Settings(_env_file=None, **values)


@pytest.fixture
async def extractor(stub, sleeps):
    # jitter=1.0: the delays are exactly base * 2**(n-1), so the test can check them.
    ex = LLMExtractor(llm_settings(stub), sleep=sleeps, jitter=lambda: 1.0)
    yield ex
    await ex.aclose()


async def test_a_valid_reply_becomes_an_extraction(stub, extractor):
    stub.respond_with(StubReply(content=json.dumps(reply()),
                                usage={"prompt_tokens": 900, "completion_tokens": 334}))

    ex = await extractor.extract(TURNS)

    assert ex.title == "Caroline's support group"
    assert ex.keywords == ["support group", "LGBTQ", "peanut allergy"]
    assert ex.importance == 0.8
    assert ex.tokens_used == 1234
    attended, lives = ex.facts
    assert attended.turn_ids == ["D1:1"]
    assert attended.event_date == date(2023, 5, 7)
    assert attended.confidence == 0.95 and not attended.single_valued
    assert attended.entities == [("Caroline", "subject")]
    assert (lives.predicate, lives.object, lives.single_valued) == ("lives in", "Boston", True)
    # A month alone means its first day, in the conversation's own time zone.
    assert lives.valid_from == datetime(2023, 4, 1, tzinfo=CEST)
    assert lives.valid_from.tzinfo is not None
    # ... and may stand for any moment of it, which supersession takes into account.
    assert lives.valid_from_until == datetime(2023, 4, 30, 23, 59, 59, tzinfo=CEST)
    assert attended.valid_from is None and attended.valid_from_until is None
    # "Caro" is an alias: the fact points at the entity under its name.
    assert lives.entities == [("Caroline", "subject"), ("Boston", "object")]
    assert [(e.name, e.type, e.aliases) for e in ex.entities] == [
        ("Caroline", "person", ["Caro"]), ("Melanie", "person", []), ("Boston", "place", [])]

    allergy, plan = ex.foresights
    assert (allergy.kind, allergy.valid_to) == ("constraint", None)  # standing: no end
    assert allergy.valid_from == TURNS[1].at  # not before it was said
    assert allergy.trigger.startswith("restaurants")
    assert plan.valid_from == datetime(2023, 5, 8, tzinfo=CEST)
    assert plan.valid_to == datetime(2023, 5, 12, 23, 59, 59, tzinfo=CEST)  # through that day
    assert plan.turn_ids == ["D1:2"]


async def test_dates_with_no_utc_day_and_text_that_is_not_unicode_are_made_storable(stub, extractor):
    # A model's "from the beginning of time" (no UTC day east of Greenwich) and a lone
    # surrogate in its JSON: the driver could not send either, and the cell would fail forever.
    body = reply()
    body["foresights"][1] = {**body["foresights"][1], "valid_from": "0001-01-01"}
    body["facts"][1] = {**body["facts"][1], "text": "Caroline lives in Bost\ud800on.", "valid_from": "0001-01-01T00:30"}
    stub.respond_with(StubReply(content=json.dumps(body)))
    ex = await extractor.extract(TURNS)
    lives = ex.facts[1]
    assert lives.text == "Caroline lives in Bost\ufffdon." and lives.text.encode("utf-8")
    assert lives.valid_from is None
    assert ex.foresights[1].valid_from == TURNS[1].at  # as with no date: not before it was said


async def test_a_state_that_ended_is_a_fact_of_its_own_that_ends_the_value(stub, extractor):
    body = reply()
    body["facts"][1] = {**body["facts"][1], "text": "Caroline moved out of Boston.", "ends": True}
    body["facts"][0] = {**body["facts"][0], "ends": True}  # not a single-valued predicate: ignored
    stub.respond_with(StubReply(content=json.dumps(body)))
    attended, left = (await extractor.extract(TURNS)).facts
    assert (left.predicate, left.object, left.ends, left.single_valued) == (
        "no longer lives in", "Boston", "lives in", False)
    assert (attended.predicate, attended.ends) == ("attended", None)


async def test_a_constraint_or_plan_said_to_be_over_is_a_foresight_end(stub, extractor):
    body = reply(foresight_ends=[
        {"who": "Melanie", "what": "peanuts", "kind": "constraint", "turn_ids": ["D1:2"]},
        {"who": "Caroline", "what": "the Lisbon trip", "kind": "trip", "turn_ids": ["D9:9"]},
        {"who": "", "what": "vegan", "kind": "constraint", "turn_ids": []},  # whose? dropped
        {"who": "Caroline", "what": "!!", "kind": "plan", "turn_ids": []},  # no words: dropped
    ])
    stub.respond_with(StubReply(content=json.dumps(body)))
    ends = (await extractor.extract(TURNS)).foresight_ends
    assert [(e.who, e.words, e.kind, e.turn_ids) for e in ends] == [
        ("Melanie", ["peanuts"], "constraint", ["D1:2"]),
        # a constraint's end only when it says so; a turn the cell does not hold is the cell's
        ("Caroline", ["the", "Lisbon", "trip"], "plan", ["D1:1", "D1:2", "D1:3"])]


async def test_the_request_carries_the_model_the_turns_and_a_strict_schema(stub, extractor):
    await extractor.extract(TURNS)

    (request,) = stub.requests
    assert request.model == "stub-model"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    for t in TURNS:
        assert t.content in request.user_text
    assert [(t["turn_id"], t["speaker"], t["time"]) for t in request.turns] == [
        ("D1:1", "Caroline", "2023-05-08T13:56:00+02:00"),
        ("D1:2", "Melanie", "2023-05-08T13:57:00+02:00"),
        ("D1:3", "Caroline", "2023-05-08T13:58:00+02:00"),
    ]
    assert "relative date" in request.system_text and '"lives in"' in request.system_text
    rf = request.response_format
    assert rf["type"] == "json_schema"
    assert rf["json_schema"]["strict"] is True
    assert rf["json_schema"]["schema"] == EXTRACTION_JSON_SCHEMA
    fact_schema = EXTRACTION_JSON_SCHEMA["properties"]["facts"]["items"]
    assert fact_schema["additionalProperties"] is False
    assert set(fact_schema["required"]) == set(fact_schema["properties"])


async def test_the_request_names_the_known_entities_the_turns_mention(stub, extractor):
    # Earlier episodes named them: the model is told, so "Mel" stays Melanie Hart.
    known = [EntityDraft("Melanie Hart", "person", ["Mel", "Melanie"]), EntityDraft("Boston", "place"),
             EntityDraft("Zorblax", "thing")]
    await extractor.extract(TURNS, known)
    (request,) = stub.requests
    line = next(ln for ln in request.user_text.splitlines() if ln.startswith("Known from earlier"))
    assert "Melanie Hart (person, also Mel, Melanie)" in line and "Boston (place)" in line
    assert "Zorblax" not in request.user_text  # not mentioned in these turns
    stub.requests.clear()
    await extractor.extract(TURNS)
    assert "Known from earlier" not in stub.requests[0].user_text


async def test_server_errors_are_retried_with_growing_backoff(stub, extractor, sleeps):
    stub.fail_next(2, status=500)

    ex = await extractor.extract(TURNS)

    assert len(stub.requests) == 3
    assert sleeps == [0.5, 1.0]
    assert [f.turn_ids for f in ex.facts] == [["D1:1"], ["D1:2"], ["D1:3"]]  # the stub's default


async def test_a_reply_that_is_not_json_is_asked_for_again(stub, extractor, sleeps):
    stub.respond_with(StubReply(content="Sure! Here you go: {facts: [", usage={"total_tokens": 40}))
    stub.respond_with(StubReply(content=json.dumps(reply()), usage={"total_tokens": 1000}))

    ex = await extractor.extract(TURNS)

    assert len(stub.requests) == 2 and len(sleeps) == 1
    assert len(ex.facts) == 2
    assert ex.tokens_used == 1040  # the wasted attempt cost tokens too


async def test_a_reply_missing_required_fields_is_asked_for_again(stub, extractor):
    stub.respond_with({"memories": ["Caroline went to a support group"]})

    ex = await extractor.extract(TURNS)

    assert len(stub.requests) == 2
    assert ex.title.startswith("Conversation between")


async def test_giving_up_raises_extraction_error_after_the_configured_attempts(stub, extractor, sleeps):
    stub.fail_next(10, status=503)

    with pytest.raises(ExtractionError) as info:
        await extractor.extract(TURNS)

    assert len(stub.requests) == 3  # llm_max_retries
    assert sleeps == [0.5, 1.0]  # no sleep after the last attempt
    message = str(info.value)
    assert "3 attempts" in message and "HTTP 503" in message
    assert API_KEY not in message and "support group" not in message


async def test_unreadable_replies_to_the_end_name_the_cause(stub, extractor):
    stub.reply_invalid_json_next(3)

    with pytest.raises(ExtractionError, match="not valid JSON"):
        await extractor.extract(TURNS)
    assert len(stub.requests) == 3


async def test_backoff_is_capped_and_jittered(stub, sleeps):
    settings = llm_settings(stub, llm_max_retries=7)
    ex = LLMExtractor(settings, sleep=sleeps, jitter=lambda: 0.0)
    stub.fail_next(6, status=502)
    try:
        await ex.extract(TURNS)
    finally:
        await ex.aclose()
    # Equal jitter: between half and all of min(8, 0.5 * 2**n); jitter 0 gives the lower bound.
    assert sleeps == [0.25, 0.5, 1.0, 2.0, 4.0, 4.0]


async def test_rate_limits_wait_at_least_retry_after(stub, extractor, sleeps):
    stub.fail_next(1, status=429, headers={"Retry-After": "3"})

    await extractor.extract(TURNS)

    assert len(stub.requests) == 2
    assert sleeps == [3.0]


async def test_a_timeout_is_retried(stub, sleeps):
    ex = LLMExtractor(llm_settings(stub, llm_timeout_s=0.3), sleep=sleeps)
    stub.delay_next(1, seconds=3.0)
    try:
        result = await ex.extract(TURNS)
    finally:
        await ex.aclose()
    assert len(stub.requests) == 2
    assert len(result.facts) == 3


async def test_an_unreachable_server_is_reported_as_such(sleeps):
    with OpenAIStub() as gone:
        settings = llm_settings(gone, llm_max_retries=2)
    ex = LLMExtractor(settings, sleep=sleeps)  # the stub has stopped: nothing listens on its port
    try:
        with pytest.raises(ExtractionError, match="could not connect"):
            await ex.extract(TURNS)
    finally:
        await ex.aclose()
    assert len(sleeps) == 1


async def test_bad_credentials_fail_at_once_without_leaking_the_key(stub, extractor, sleeps):
    stub.fail_next(5, status=401, message=f"Incorrect API key provided: {API_KEY}")

    with pytest.raises(ExtractionError) as info:
        await extractor.extract(TURNS)

    assert len(stub.requests) == 1 and sleeps == []
    assert "ENGRAM_LLM_API_KEY" in str(info.value)
    assert API_KEY not in str(info.value)


async def test_unknown_turn_ids_are_dropped(stub, extractor):
    facts = reply()["facts"]
    facts[0]["turn_ids"] = ["D1:1", "D9:9", "made-up"]
    facts[1]["turn_ids"] = ["nope"]
    stub.respond_with(reply(facts=facts))

    ex = await extractor.extract(TURNS)

    assert ex.facts[0].turn_ids == ["D1:1"]
    # Nothing left to prove it: the whole cell is its evidence.
    assert ex.facts[1].turn_ids == ["D1:1", "D1:2", "D1:3"]


async def test_numbers_are_clamped_and_lists_capped(stub, extractor):
    many = [
        {"subject": "Caroline", "predicate": "likes", "object": f"thing {i}",
         "text": f"Caroline likes thing {i}.", "confidence": 3 if i % 2 else -1, "valid_from": None,
         "event_date": None, "turn_ids": ["D1:1"], "entities": [], "single_valued": False}
        for i in range(80)
    ]
    stub.respond_with(reply(importance=7, facts=many))

    ex = await extractor.extract(TURNS)

    assert ex.importance == 1.0
    assert len(ex.facts) == 50
    assert {f.confidence for f in ex.facts} == {0.0, 1.0}
    # No entities named: the subject becomes the fact's entity.
    assert ex.facts[0].entities == [("Caroline", "subject")]


async def test_single_valued_predicates_are_made_canonical(stub, extractor):
    fact = {"subject": "Caroline", "predicate": "Works_For", "object": "Acme", "text": "Caroline works for Acme.",
            "confidence": 0.9, "valid_from": "not sure", "event_date": "2023-05", "turn_ids": ["D1:3"],
            "entities": [], "single_valued": False}
    stub.respond_with(reply(facts=[fact]))

    (f,) = (await extractor.extract(TURNS)).facts

    assert (f.predicate, f.single_valued) == ("works at", True)
    assert f.valid_from is None and f.event_date is None  # unreadable / not a day: dropped


async def test_a_sloppy_but_recognisable_reply_is_accepted(stub, extractor):
    sloppy = reply(keywords="support group, LGBTQ", importance=None)
    sloppy["facts"][0].update(confidence="0.6", turn_ids="D1:1", entities=None, object=None)
    stub.respond_with("```json\n" + json.dumps({"extraction": sloppy}) + "\n```")

    ex = await extractor.extract(TURNS)

    assert len(stub.requests) == 1
    assert ex.keywords == ["support group", "LGBTQ"]
    assert ex.importance == 0.5
    f = ex.facts[0]
    assert (f.confidence, f.turn_ids, f.object) == (0.6, ["D1:1"], "")


async def test_a_server_without_json_schema_gets_json_mode(sleeps):
    with OpenAIStub(json_schema_supported=False) as stub:
        ex = LLMExtractor(llm_settings(stub), sleep=sleeps)
        try:
            first = await ex.extract(TURNS)
            await ex.extract(TURNS[:1])
        finally:
            await ex.aclose()
        kinds = [r.response_format_type for r in stub.requests]
    assert kinds == ["json_schema", "json_object", "json_object"]  # learnt once, then remembered
    assert sleeps == [] and len(first.facts) == 3


async def test_a_model_that_rejects_temperature_gets_none(stub, extractor, sleeps):
    stub.fail_next(1, status=400, message="Unsupported value: 'temperature' does not support 0 "
                                          "with this model. Only the default (1) value is supported.")

    await extractor.extract(TURNS)
    await extractor.extract(TURNS)

    assert [("temperature" in r.body) for r in stub.requests] == [True, False, False]
    assert sleeps == []


async def test_other_client_errors_are_not_retried(stub, extractor):
    stub.fail_next(3, status=400, message="context length exceeded")

    with pytest.raises(ExtractionError, match="HTTP 400: context length exceeded"):
        await extractor.extract(TURNS)
    assert len(stub.requests) == 1


@pytest.mark.parametrize(("missing", "variable"), [
    ("llm_base_url", "ENGRAM_LLM_BASE_URL"),
    ("llm_model", "ENGRAM_LLM_MODEL"),
])
def test_missing_configuration_names_the_variable_to_set(stub, missing, variable):
    with pytest.raises(ExtractionError, match=variable):
        LLMExtractor(llm_settings(stub, **{missing: ""}))
    assert stub.requests == []


async def test_the_stub_default_extracts_one_fact_per_turn(stub, extractor):
    ex = await extractor.extract(TURNS)

    assert [f.turn_ids for f in ex.facts] == [["D1:1"], ["D1:2"], ["D1:3"]]
    moved = ex.facts[2]
    assert (moved.predicate, moved.object, moved.single_valued) == ("lives in", "Boston", True)
    assert [f.kind for f in ex.foresights] == ["constraint"]
    assert {e.name for e in ex.entities} >= {"Caroline", "Melanie", "Boston"}
    assert ex.tokens_used > 0
