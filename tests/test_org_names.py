"""An organisation called by its first words ("Acme" for "Acme Logistics") is the one organisation
so named, whichever name is said first and whether in one episode or two; with two so named, or a
person's given name, it stays its own. Local extractor, real Neo4j."""
from datetime import timedelta

from app.construction.ingest import Ingestor
from tests.conversation import DAY1


async def _tell(services, graph, said: list[tuple[int, str]]) -> None:
    ingestor = Ingestor(services)
    for day in sorted({d for d, _ in said}):
        await ingestor.memorize(graph.tenant, f"c{day}", [
            {"id": f"s{i}", "speaker": "Sam", "content": text, "timestamp": DAY1 + timedelta(days=d, minutes=i)}
            for i, (d, text) in enumerate(said) if d == day], flush=True)


async def _entities(graph) -> dict[str, tuple[str, list[str]]]:
    rows = await graph.read("MATCH (e:Entity {tenant: $tenant}) WHERE e.type <> 'person' OR e.key <> 'sam' "
                            "RETURN e.key AS key, e.type AS type, e.aliases AS aliases")
    return {r["key"]: (r["type"], sorted(r["aliases"] or [])) for r in rows}


async def test_a_short_name_said_after_the_long_one_is_that_organisation(services, graph):
    await _tell(services, graph, [(0, "I just signed Acme Logistics, they want 40 seats."),
                                  (1, "Acme wants the invoice by Friday.")])
    ents = await _entities(graph)
    assert ents["acme logistics"] == ("organization", ["Acme"]) and "acme" not in ents, ents
    facts = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text STARTS WITH 'Acme wants' "
                             "RETURN f.subjectKey AS subject")
    assert [r["subject"] for r in facts] == ["acme logistics"]
    merges = await graph.read("MATCH (e:Entity {tenant: $tenant, key: 'acme logistics'}) RETURN e.merges AS m")
    assert '"method": "prefix"' in merges[0]["m"][0]


async def test_a_long_name_said_after_the_short_one_is_that_organisation(services, graph):
    await _tell(services, graph, [(0, "My contact at Globex is Tom Baker."),
                                  (1, "Globex Foods wants a demo next week.")])
    ents = await _entities(graph)
    assert ents["globex"] == ("organization", ["Globex Foods"]) and "globex foods" not in ents, ents


async def test_both_names_in_one_episode_are_one_organisation_and_a_post_is_no_part_of_it(services, graph):
    await _tell(services, graph, [(0, "I met the CTO of Hooli Systems today. Hooli wants a pilot in January.")])
    ents = await _entities(graph)
    assert ents["hooli systems"] == ("organization", ["Hooli"]) and "hooli" not in ents, ents
    assert not [k for k in ents if k.startswith("cto")]


async def test_a_name_two_organisations_begin_with_or_a_given_name_stays_its_own(services, graph):
    await _tell(services, graph, [(0, "Initech Analytics renewed for two years."),
                                  (0, "Initech Foods renewed as well."),
                                  (1, "Initech called about the invoice."),
                                  (1, "Laura Logistics is a client now."),
                                  (2, "Laura wants a call on Monday.")])
    ents = await _entities(graph)
    assert {"initech analytics", "initech foods", "initech"} <= set(ents), ents
    assert ents["initech analytics"][1] == [] and ents["initech foods"][1] == []
    assert ents["laura"][0] == "person" and ents["laura logistics"][1] == [], ents


def test_what_an_account_has_makes_it_an_organisation_and_its_tiers_no_places():
    from tests.test_extract_local import extract, turn
    ex = extract([turn(t, speaker="Dana", i=i) for i, t in enumerate([
        "Harbor upgraded from Starter to Pro, 20 seats now.",
        "So Marta Silva is Harbor's main contact from Dec 1. She prefers email, don't call her."])])
    types = {e.name: e.type for e in ex.entities}
    assert types["Harbor"] == "organization" and types["Marta Silva"] == "person"
    assert types.get("Starter", "thing") == "thing" and types.get("Pro", "thing") == "thing"
    # "she" is Marta Silva, not the account named before her.
    assert not [f for f in ex.facts if f.subject == "Harbor" and f.predicate == "prefers"]


async def test_names_whose_numbers_differ_stay_two(services, graph):
    await _tell(services, graph, [(0, "Ticket QL-118 is about the nightly sync failing."),
                                  (1, "Ticket QL-131 is about the SAML login loop.")])
    ents = await _entities(graph)
    tickets = sorted(k for k in ents if "ql" in k)
    assert len(tickets) == 2 and "118" in tickets[0] and "131" in tickets[1], ents


async def test_a_first_name_said_with_the_full_name_in_one_episode_is_that_person(services, graph):
    # Walk-through 74: "Gordon at number 16, Gordon Pike" had made "Gordon" a person of his own,
    # and every later "Gordon" his (the party wall agreement, the driveway).
    await _tell(services, graph, [(0, "Dave wants to start on Monday 5th October if planning comes through"),
                                  (0, "we need to sort the party wall thing with next door too. Gordon at number 16, "
                                      "Gordon Pike"),
                                  (0, "priya says she'll send the notice to Gordon this week"),
                                  (1, "Gordon signed the party wall agreement!!"),
                                  (2, "Tom Reyes and Tom Baker are both coming on Friday")])
    ents = await _entities(graph)
    assert ents["gordon pike"] == ("person", ["Gordon"]) and "gordon" not in ents, ents
    facts = await graph.read("MATCH (f:Fact {tenant: $tenant}) WHERE f.text CONTAINS 'signed' "
                             "RETURN f.subjectKey AS subject")
    assert [r["subject"] for r in facts] == ["gordon pike"], facts
    # two people of one first name: neither takes it
    assert ents["tom reyes"][1] == [] and ents["tom baker"][1] == [], ents


async def test_a_person_named_with_or_without_a_title_is_the_one_so_named(services, graph):
    # Walk-throughs 75 and 76: "Dr Patel" after "Dr Anita Patel", "Helen Jones" after "Mrs Helen
    # Jones", were people of their own (relatedTo and an entity's facts split between them).
    await _tell(services, graph, [(0, "Took dad to the GP today, Dr Anita Patel at Ashgrove Surgery"),
                                  (0, "our contact at St Anne's is Mrs Helen Jones, the family support worker"),
                                  (0, "Mr Tom Reyes and Mr Tom Baker came round"),
                                  (1, "Dr Patel rang, his blood pressure is still high"),
                                  (1, "Helen Jones has left St Anne's"),
                                  (1, "Tom Baker rang about the invoice")])
    ents = await _entities(graph)
    assert "Dr Patel" in ents["dr anita patel"][1] and "dr patel" not in ents, ents
    assert "Helen Jones" in ents["mrs helen jones"][1] and "helen jones" not in ents, ents
    assert "Tom Baker" in ents["mr tom baker"][1] and ents["mr tom reyes"][1] == [], ents


async def test_a_given_name_alone_is_the_one_person_known_with_a_title_and_that_given_name(services, graph):
    # Walk-through 108: "Elaine" after "Dr Elaine Whitcombe" was a person of her own, holding the
    # PAD deadline (relatedTo of the tutor found "Elaine" two hops away); two titled Annas stay apart.
    await _tell(services, graph, [(0, "My link tutor is Dr Elaine Whitcombe, she's lovely"),
                                  (0, "Dr Anna Berg and Prof Anna Lind run the module"),
                                  (1, "Elaine wants my PAD signed off by Friday"),
                                  (1, "Anna moved the seminar")])
    ents = await _entities(graph)
    assert "Elaine" in ents["dr elaine whitcombe"][1] and "elaine" not in ents, ents
    assert "anna" in ents and ents["dr anna berg"][1] == [] and ents["prof anna lind"][1] == [], ents


async def test_a_full_name_said_with_and_without_its_title_in_one_episode_is_one_person(services, graph):
    # Walk-through 113: "Professor Ingrid Larsen" and "Ingrid Larsen", a turn apart, were two people (relatedTo of
    # the examiner put her university last).
    await _tell(services, graph, [(0, "External examiner will be Professor Ingrid Larsen from Uppsala University"),
                                  (0, "Ingrid Larsen as in the Larsen lab that did the organoid paper??")])
    ents = await _entities(graph)
    assert "Ingrid Larsen" in ents["professor ingrid larsen"][1] and "ingrid larsen" not in ents, ents


async def test_a_full_name_and_a_title_fit_for_her_with_the_surname_are_one_person(services, graph):
    # Walk-throughs 97 and 98: "Margaret Okafor" and "Mrs Okafor", "Deepa Patel" and "Mrs Patel" were two
    # people each (her quote's timeline split between them); "Mr Okafor" is not Margaret.
    await _tell(services, graph, [(0, "New customer: Margaret Okafor, 14 Mill Lane, wants a new consumer unit"),
                                  (0, "Mrs Patel rang about the nursery fees"),
                                  (1, "Mrs Okafor wants it done before Christmas"),
                                  (1, "Mr Okafor rang too"),
                                  (1, "the manager is Deepa Patel")])
    ents = await _entities(graph)
    assert "Mrs Okafor" in ents["margaret okafor"][1] and "mrs okafor" not in ents, ents
    assert "mr okafor" in ents, ents
    people = {k for k in ents if "patel" in k}
    assert len(people) == 1, ents


async def test_a_surname_said_alone_is_the_one_person_of_that_surname(services, graph):
    # Walk-throughs 74 and 79: "Okafor" after "David Okafor", "Harwood" after "Mike Harwood", were
    # people of their own (Okafor's revised quote never closed his first).
    await _tell(services, graph, [(0, "New enquiry from David Okafor, 7 Mill Road. full lawn re-turf"),
                                  (0, "Anna Reyes and Tom Reyes both called"),
                                  (1, "Okafor wants edging added, his revised quote is £1,950"),
                                  (1, "Reyes wants a quote")])
    ents = await _entities(graph)
    assert "Okafor" in ents["david okafor"][1] and "okafor" not in ents, ents
    assert ents["anna reyes"][1] == [] and ents["tom reyes"][1] == [], ents  # (two of that surname: neither)


async def test_a_relative_named_with_or_without_the_kin_word_is_one_person(services, graph):
    # Walk-through 78: "Yusuf" and "Cousin Yusuf" were two people.
    await _tell(services, graph, [(0, "cousin Yusuf is flying in from Toronto for it!!"),
                                  (1, "Cousin Yusuf's flight changed. he now lands at 2:40pm on Thursday"),
                                  (2, "Yusuf's flight changed AGAIN")])
    ents = await _entities(graph)
    people = {k for k, (t, _) in ents.items() if "yusuf" in k}
    assert len(people) == 1, ents


async def test_a_firm_read_as_a_place_or_a_thing_is_the_one_its_first_word_names(services, graph):
    # Walk-through 79: "turf comes from Meadowline Turf" was read as a place, "Meadowline" as a
    # thing of its own; "Hilltop Skips" likewise. No street is a firm: "Birch" is no "Birch Lane".
    await _tell(services, graph, [(0, "turf comes from Meadowline Turf, £3.50 a roll"),
                                  (0, "new client at 12 Birch Lane"),
                                  (0, "we went to Leeds Castle and the Hilltop Park last week"),
                                  (1, "frost this morning and the turf from Meadowline hasn't turned up"),
                                  (1, "Birch is a nice tree"),
                                  (1, "we drove to Leeds and then to Hilltop")])
    ents = await _entities(graph)
    assert "Meadowline" in ents["meadowline turf"][1] and "meadowline" not in ents, ents
    assert all("Birch" not in aliases for _, aliases in ents.values()), ents
    # nor a city, nor a place named by its kind ("Leeds" is no "Leeds Castle", "Hilltop" no "Hilltop Park")
    assert all(a not in ("Leeds", "Hilltop") for _, aliases in ents.values() for a in aliases), ents


async def test_a_speaker_of_a_full_name_is_the_one_named_before_with_a_title(services, graph):
    # Walk-through 88: the student named "Dr Paul Brennan"; then Paul Brennan spoke in the group, and
    # the two were people of their own (his facts on one, what was said of him on the other).
    from tests.conversation import tell_days
    await tell_days(services, graph, [(0, "Aisha", "Okafor is asking Dr Paul Brennan to join as co-supervisor"),
                                      (1, "Paul Brennan", "Hello Aisha, happy to join as your co-supervisor")])
    ents = await _entities(graph)
    assert "paul brennan" not in ents and "dr paul brennan" in ents, ents


async def test_a_short_form_of_a_given_name_is_the_one_person_known_by_the_full_one(services, graph):
    # Walk-through 127: "Mr Thomas Okafor" and, days later, "Tom" were two people, and relatedTo("Tom Okafor")
    # found no one. A short form named with its full name in one episode is one person too; of two it stays apart.
    from app.recollection.related import RelatedService
    await _tell(services, graph, [(0, "The deputy, Mr Thomas Okafor, will be acting head from Monday"),
                                  (0, "Our new GP is Dr Michael Chen. Mike said the bloods are fine"),
                                  (0, "Dr Robert Hale and Robert Price run the surgery"),
                                  (1, "Good news, Tom said yes to the bouncy castle on the playground"),
                                  (1, "Bob said the flu jabs are in"),
                                  (2, "Tom Okafor wants the insurance certificate from Jumping Jacks")])
    ents = await _entities(graph)
    assert {"Tom", "Tom Okafor"} <= set(ents["mr thomas okafor"][1]) and "tom okafor" not in ents, ents
    assert "Mike" in ents["dr michael chen"][1] and "mike" not in ents, ents
    assert "bob" in ents and ents["dr robert hale"][1] == [] and ents["robert price"][1] == [], ents
    related = {r.entity["name"] for r in await RelatedService().related_to(graph, "Tom Okafor", hops=1)}
    assert "Jumping Jacks" in related, related
    # asked by a short form no one was called: the one person of the full name, with or without the surname
    from datetime import datetime, timezone
    from app.recollection.lookup import entity_by_name
    now = datetime.now(timezone.utc)
    for asked in ("Mick", "Mick Chen", "Thomas Okafor"):
        assert (await entity_by_name(graph, asked, now) or {}).get("name") in ("Dr Michael Chen", "Mr Thomas Okafor"), asked
    assert await entity_by_name(graph, "Rob", now) is None  # (two Roberts)
