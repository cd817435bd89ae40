"""What someone takes, and when it changes: "takes" holds several values at once (insulin
beside a statin), and only a statement that one ended ends it ("switched Dad from metformin to
insulin"). Local extractor; the timeline on the real Neo4j."""
from datetime import datetime, timedelta, timezone

import pytest

from app.construction.ingest import Ingestor
from tests.test_extract_local import extract, turn


@pytest.fixture
def ingestor(services):
    return Ingestor(services)


def _facts(*said: str, speaker: str = "Priya") -> set[tuple[str, str, str]]:
    ex = extract([turn(s, speaker=speaker, i=i) for i, s in enumerate(said)])
    return {(f.subject, f.predicate, f.object) for f in ex.facts}


def test_what_someone_takes_is_read_for_whom_the_sentence_says():
    facts = _facts("My father Raj is 78.", "Dr. Lee has him on metformin, 500 mg twice a day.",
                   "Update: Dr. Lee switched Dad from metformin to insulin yesterday.",
                   "He takes 10 units of Lantus every night before bed.", "I take a statin.",
                   "I stopped taking sertraline in May.")
    assert {("Raj", "takes", "metformin"), ("Raj", "stopped taking", "metformin"), ("Raj", "takes", "insulin"),
            ("Raj", "takes", "Lantus"), ("Priya", "takes", "statin"), ("Priya", "stopped taking", "sertraline")
            } <= facts
    # Not the doctor's, and no second "takes" of the whole phrase.
    assert not [f for f in facts if f[0] == "Dr. Lee" and f[1] in ("takes", "stopped taking")]
    assert ("Raj", "takes", "10 units of Lantus every night before bed") not in facts
    # A relative's, said as "my mother", and changed by "they" (the doctors): hers.
    assert {("Helen's mother", "takes", "lisinopril"), ("Helen's mother", "stopped taking", "lisinopril"),
            ("Helen's mother", "takes", "amlodipine")} <= _facts(
        "My mother takes lisinopril for her blood pressure.",
        "They took her off the lisinopril and put her on amlodipine.", speaker="Helen")


def test_a_dose_is_its_medications_one_value_for_whom_the_sentence_says():
    facts = _facts("My father Raj is 78.", "Dr. Lee has him on metformin, 500mg twice a day.",
                   "He takes 10 units of Lantus every night.", "Dr. Okafor bumped his Lantus up to 12 units.",
                   "Raj said his metformin dose went down to 250 mg.", "I take 20mg of citalopram.",
                   "Mum's statin got reduced to 10mg.")
    doses = {f for f in facts if f[1].endswith(" dose is")}
    assert doses == {("Raj", "metformin dose is", "500 mg"), ("Raj", "lantus dose is", "10 units"),
                     ("Raj", "lantus dose is", "12 units"), ("Raj", "metformin dose is", "250 mg"),
                     ("Priya", "citalopram dose is", "20 mg"), ("Priya's mum", "statin dose is", "10 mg")}
    # "Mum's statin got reduced": a fact of Mum's, not of a thing called "Mum's statin".
    assert not [f for f in facts if f[0].startswith("Priya's mum's")]


async def test_a_switch_ends_the_old_medication_and_keeps_the_others(graph, ingestor):
    first = datetime(2026, 10, 20, 19, 0, tzinfo=timezone.utc)
    said = [("p1", "My father Raj takes a statin for his cholesterol.", first),
            ("p2", "Dr. Lee has him on metformin, 500 mg twice a day.", first + timedelta(minutes=1)),
            ("p3", "Dr. Lee switched Dad from metformin to insulin yesterday.", first + timedelta(days=8)),
            ("p4", "Dad came off the statins this week.", first + timedelta(days=30))]
    msgs = [{"id": i, "speaker": "Priya", "role": "user", "content": text, "timestamp": at} for i, text, at in said]
    await ingestor.memorize(graph.tenant, "c1", msgs[:2], flush=True)
    await ingestor.memorize(graph.tenant, "c1", msgs[2:3], flush=True)

    async def taking() -> dict[str, str]:
        rows = await graph.read("""
            MATCH (f:Fact {tenant: $tenant, subjectKey: 'raj', predicate: 'takes'})
            RETURN toLower(f.object) AS what, f.status AS status, f.validTo AS until""")
        return {r["what"]: r["status"] for r in rows}

    # Insulin does not end the statin (a thing of several values); the switch ends metformin,
    # from the day it names.
    assert await taking() == {"statin": "current", "metformin": "superseded", "insulin": "current"}
    [ended] = await graph.read("""
        MATCH (f:Fact {tenant: $tenant, subjectKey: 'raj', predicate: 'takes', object: 'metformin'})
        RETURN f.validTo AS until""")
    assert ended["until"].to_native().date() == (first + timedelta(days=7)).date()
    [insulin] = await graph.read("""
        MATCH (f:Fact {tenant: $tenant, subjectKey: 'raj', predicate: 'takes', object: 'insulin'})
        RETURN f.validFrom AS since""")
    assert insulin["since"].to_native().date() == (first + timedelta(days=7)).date()  # no day without either
    await ingestor.memorize(graph.tenant, "c1", msgs[3:], flush=True)
    assert await taking() == {"statin": "superseded", "metformin": "superseded", "insulin": "current"}


async def test_no_current_fact_keeps_an_old_dose_or_a_stopped_medication(graph, ingestor):
    first = datetime(2026, 9, 20, 8, 0, tzinfo=timezone.utc)
    said = [("Tomás", "I have high blood pressure and I take lisinopril 10 mg every morning.", 0),
            ("Mei", "I take ibuprofen 400 mg after training when it aches.", 1),
            ("Tomás", "Back from Dr. Carvalho. My blood pressure is still a bit high, 142/90, so she raised my "
                      "lisinopril to 20 mg.", 24),
            ("Mei", "My GP told me to stop ibuprofen completely.", 11),
            ("Mei", "For the knee I'm switching to paracetamol 500 mg when needed.", 11)]
    for i, (who, text, day) in enumerate(sorted(said, key=lambda s: s[2])):
        await ingestor.memorize(graph.tenant, f"c-{who}", [
            {"id": f"m{i}", "speaker": who, "role": "user", "content": text,
             "timestamp": first + timedelta(days=day, minutes=i)}], flush=True)
    rows = await graph.read("""
        MATCH (f:Fact {tenant: $tenant}) WHERE f.status = 'current'
        RETURN f.subject AS who, f.predicate AS predicate, toLower(f.object) AS what, f.text AS text""")
    current = {(r["who"], r["predicate"], r["what"]) for r in rows}
    # The dose that went up ends the old one, and no "takes" fact says 10 mg any more (its twin
    # with the whole sentence stayed current); the stop and the switch each read.
    assert {("Tomás", "takes", "lisinopril"), ("Tomás", "lisinopril dose is", "20 mg"),
            ("Mei", "stopped taking", "ibuprofen"), ("Mei", "takes", "paracetamol"),
            ("Mei", "paracetamol dose is", "500 mg")} <= current, current
    assert not [r["text"] for r in rows if "10 mg" in r["text"] or "400 mg" in r["text"]], rows
    assert ("Mei", "takes", "ibuprofen") not in current
    # the medication is a thing of its own, which its facts name
    [med] = await graph.read("""
        MATCH (e:Entity {tenant: $tenant, key: 'lisinopril'})<-[:ABOUT]-(f:Fact {status: 'current'})
        RETURN e.type AS type, collect(f.predicate) AS predicates""")
    assert med["type"] == "thing" and {"takes", "lisinopril dose is"} <= set(med["predicates"]), med


def test_a_dose_told_alone_changed_by_the_doctor_or_as_it_and_corrected_is_the_takers():
    # Walk-through 95: "Felodipine, 5mg every morning" made no fact, felodipine no medication; "Dr Hughes
    # has put the felodipine up to 15mg" a value of the drug's; "sorry, 10mg not 15!" and "reduced it to
    # 7.5mg" no dose of Geoff's.
    facts = _facts("Geoff takes blood pressure tablets.", "Felodipine, 5mg every morning.",
                   "Dr Hughes at Elm Tree Surgery prescribes it.", "Dr Hughes has put the felodipine up to 15mg",
                   "sorry, 10mg not 15!", "Dr Hughes rang yesterday and reduced it to 7.5mg", speaker="Ann")
    doses = {o for s, p, o in facts if (s, p) == ("Geoff", "felodipine dose is")}
    assert doses == {"5 mg", "15 mg", "10 mg", "7.5 mg"}, facts
    assert ("Geoff", "takes", "Felodipine") in facts
    assert not [f for f in facts if f[0] == "Dr Hughes" and "dose" in f[1]]
    # ... "it" of two medications taken is neither's
    facts = _facts("Geoff takes felodipine 5mg.", "Geoff takes metformin 500mg.", "Dr Hughes reduced it to 2.5mg",
                   speaker="Ann")
    assert not [f for f in facts if f[2] == "2.5 mg"], facts


def test_a_horses_dose_in_sachets_put_down_by_the_vet_is_the_horses():
    # Session 57 (a livery yard): "bute" was no medication, a sachet no dose, and "She's put Maisie
    # down to half a sachet" was "Dr Priya Shah is put Maisie ..." with the old dose current.
    facts = _facts("Maisie is on 1 sachet of bute a day (that's 1g).", "Dr Priya Shah came out on Monday.",
                   "She's put Maisie down to half a sachet of bute.", speaker="Sarah")
    assert {("Maisie", "takes", "bute"), ("Maisie", "bute dose is", "1 sachet"),
            ("Maisie", "bute dose is", "half a sachet")} <= facts, facts
    assert not [f for f in facts if f[0] == "Dr Priya Shah" and f[1] == "is"], facts
    # a child's syrup in ml and a tablet's in g are doses too
    assert ("Leo", "piriton dose is", "2.5 ml") in _facts("Leo has 2.5ml of Piriton when he gets hives.",
                                                          speaker="Amy")


def test_a_dose_said_after_why_told_to_drop_and_lowered_again_and_a_sum_said_again_is_no_dose():
    # Walk-through 99: "I'm on warfarin for my AF, 5mg every evening" had no dose; "said to drop the warfarin to
    # 4mg" and "has lowered it again, 3.5mg now" no new one; and "sorry, £14,200" (of a savings account) had
    # made the warfarin dose 14,200 mg.
    facts = _facts("The other thing is I'm on warfarin for my AF, 5mg every evening.", speaker="Margaret")
    assert ("Margaret", "warfarin dose is", "5 mg") in facts, facts
    ex = extract([turn("The clinic phoned.", speaker="Margaret", i=0),
                  turn("Dr Helen Okafor said to drop the warfarin to 4mg a day from tonight.", speaker="Margaret", i=1),
                  turn("I rang Nationwide, Dad's savings account has about £12,400 in it.", speaker="Daniel", i=2),
                  turn("sorry, £14,200. I read it backwards off the letter.", speaker="Daniel", i=3)])
    doses = {f.object for f in ex.facts if f.predicate == "warfarin dose is"}
    assert doses == {"4 mg"}, [f.text for f in ex.facts]
    # (and no fact of the doctor's beside it with the same 4mg: it had stayed current after the dose changed)
    assert not [f.text for f in ex.facts if f.subject == "Dr Helen Okafor"], [f.text for f in ex.facts]
    assert [f.text for f in ex.facts if "14,200" in f.text and f.valid_to is None], [f.text for f in ex.facts]
    facts = _facts("I take warfarin, 4mg.", "INR 3.4 this time, so Dr Okafor has lowered it again, 3.5mg now.",
                   speaker="Margaret")
    assert ("Margaret", "warfarin dose is", "3.5 mg") in facts, facts


def test_she_who_was_prescribed_is_the_patient_not_the_consultant_named_last():
    # Walk-through 97: "She's been prescribed an EpiPen Jr" after "The consultant is Dr Nkechi Okafor" was
    # "Dr Nkechi Okafor has been prescribed an EpiPen Jr".
    ex = extract([turn("Isla had a reaction to egg last week.", speaker="Claire", i=0),
                  turn("The consultant is Dr Nkechi Okafor at St Mary's", speaker="Claire", i=1),
                  turn("She's been prescribed an EpiPen Jr, 0.15mg.", speaker="Claire", i=2)])
    texts = [f.text for f in ex.facts]
    assert "Isla has been prescribed an EpiPen Jr, 0.15mg." in texts, texts
    assert not [t for t in texts if t.startswith("Dr Nkechi Okafor has been")], texts


def test_a_medicine_given_to_a_child_and_the_dose_going_up_are_the_childs():
    # Walk-through 97: "we give her cetirizine, 2.5ml once a day" and "Isla's 14kg now so the cetirizine dose goes
    # up to 5ml once a day" were "said" facts of the mother's, both current.
    facts = _facts("Isla has an egg allergy.", "For her eczema we give her cetirizine, 2.5ml once a day.",
                   "Isla's 14kg now so the cetirizine dose goes up to 5ml once a day", speaker="Claire")
    assert {("Isla", "takes", "cetirizine"), ("Isla", "cetirizine dose is", "2.5 ml"),
            ("Isla", "cetirizine dose is", "5 ml")} <= facts, facts
    assert not [f for f in facts if f[0] == "Claire" and "dose" in f[1]], facts
    # ... given "her" after a consultant was named: the child's, never the consultant's (third run of walk-through
    # 97: "Dr Nkechi Okafor takes cetirizine")
    facts = _facts("Isla had a reaction to egg.", "The consultant is Dr Nkechi Okafor at St Mary's",
                   "For mild reactions (hives, itchy mouth) we give her cetirizine, 2.5ml once a day.", speaker="Claire")
    assert ("Isla", "cetirizine dose is", "2.5 ml") in facts, facts
    assert not [f for f in facts if f[0].startswith("Dr ") and ("takes" in f[1] or "dose" in f[1])], facts


def test_a_vets_practice_is_no_one_whom_a_dose_is_put_on():
    # Second run of walk-through 96: "His vet is Megan Ashworth at Dee Valley Vets, she's put him on 2g of bute"
    # made "Megan Ashworth takes bute" (the practice was a person, so "him" was the vet).
    facts = _facts("His vet is Megan Ashworth at Dee Valley Vets, she's put him on 2g of bute a day for a bruised sole",
                   speaker="Hannah")
    assert not [f for f in facts if f[0] == "Megan Ashworth" and ("takes" in f[1] or "dose" in f[1])], facts


def test_a_dose_said_alone_after_its_medication_is_its_one_value():
    # Walk-through 103: "she also wants me lower on the Tresiba again ... 14 units from tonight" was "unit count is 14",
    # so the Tresiba's 16 before it stayed current (Tresiba was no medication).
    facts = _facts("I'm on Tresiba for basal, 18 units every night at 10pm",
                   "she also wants me lower on the Tresiba again, still getting lows after spin. 14 units from tonight",
                   speaker="Callum")
    assert {o for s, p, o in facts if (s, p) == ("Callum", "tresiba dose is")} == {"18 units", "14 units"}, facts
    assert not [f for f in facts if f[0] == "unit count"], facts


def test_a_dose_changed_from_tonight_is_no_plan_of_a_day():
    # Walk-through 103 (third run): each dose change had also been a day-long plan ("Callum's Tresiba is 14 units from
    # 2026-11-14."), listed among the things to keep in mind that day.
    from datetime import datetime, timezone
    from tests.conversation import extracted
    ex = extracted([("Callum", "she also wants me lower on the Tresiba again. 14 units from tonight")],
                   datetime(2026, 11, 14, 11, tzinfo=timezone.utc))
    assert [f.object for f in ex.facts if f.predicate == "tresiba dose is"] == ["14 units"]
    assert not [o for o in ex.foresights if o.kind == "plan"]
    ex = extracted([("Callum", "I'm seeing Wendy on Friday about the Tresiba")],
                   datetime(2026, 11, 14, 11, tzinfo=timezone.utc))
    assert [o for o in ex.foresights if o.kind == "plan"]  # (a day ahead is still one)


def test_an_allergy_a_doctor_thinks_a_patient_has_is_no_rule_of_the_doctors():
    # Walk-through 104: "Dr Mehta thinks it could be cow's milk protein allergy" was the constraint "Dr Mehta has a
    # milk protein allergy." (the top hit for "Which GP thought Isla might have a milk allergy?")
    ex = extract([turn("GP saw her too this afternoon.", speaker="Tom", i=0),
                  turn("Dr Mehta thinks it could be cow's milk protein allergy - the eczema, the reflux", speaker="Tom",
                       i=1)])
    assert not [f.text for f in ex.foresights if "Mehta" in f.text]
    # the doctor's own, said plainly, stays theirs
    ex = extract([turn("Dr Mehta is allergic to penicillin, funnily enough.", speaker="Tom", i=0)])
    assert [f.text[:34] for f in ex.foresights if f.kind == "constraint"] == ["Dr Mehta is allergic to penicillin"]
