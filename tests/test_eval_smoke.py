"""The evaluation harness end to end through the service, on a small LoCoMo-layout file:
it ingests, asks every method and both baselines, and writes its four outputs."""
import json

from app.evaluation.runner import EvalConfig, run_locomo
from app.store.graph import TenantGraph

SAMPLE = [{
    "sample_id": "smoke-1",
    "conversation": {
        "speaker_a": "Ana", "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben! I adopted a grey cat called Miso yesterday."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! Is Miso settling in?"},
            {"speaker": "Ana", "dia_id": "D1:3", "text": "Yes, she sleeps on my keyboard all day."},
            {"speaker": "Ben", "dia_id": "D1:4", "text": "I started a pottery class at the community centre."},
        ],
        "session_2_date_time": "10:00 am on 20 June, 2023",
        "session_2": [
            {"speaker": "Ana", "dia_id": "D2:1", "text": "I got a job at the city library!"},
            {"speaker": "Ben", "dia_id": "D2:2", "text": "Congrats! My pottery teacher says my bowls improved.",
             "blip_caption": "a photo of a blue bowl"},
        ],
    },
    "qa": [
        {"question": "What is the name of Ana's cat?", "answer": "Miso", "evidence": ["D1:1"], "category": 4},
        {"question": "When did Ana adopt her cat?", "answer": "7 May 2023", "evidence": ["D1:1"], "category": 2},
        {"question": "Where does Ana work?", "answer": "the city library", "evidence": ["D2:1"], "category": 4},
        {"question": "What class did Ben take?", "answer": "pottery", "evidence": ["D1:4", "D2:2"], "category": 1},
        {"question": "What is Ben's dog called?", "adversarial_answer": "no dog", "evidence": ["D:9:9"], "category": 5},
    ],
}]


async def test_harness_runs_through_the_service_and_writes_its_outputs(services, tmp_path):
    data = tmp_path / "smoke.json"
    data.write_text(json.dumps(SAMPLE))
    out = tmp_path / "out"
    summary = await run_locomo(services, data, out, EvalConfig(ks=(5, 10)))
    for name in ("questions.jsonl", "summary.md", "summary.json", "recall_by_category.png"):
        assert (out / name).stat().st_size > 0, name
    final = json.loads(summary["final_line"])
    assert final["questions"] == 4  # categories 1-4 with gold evidence
    for method in ("hybrid", "keyword", "vector", "graph", "bm25_turns", "dense_turns"):
        assert final["recall@5"][method] <= final["recall@10"][method], method
    # Six turns: the ten best of a baseline that ranks every turn hold every gold turn.
    assert final["recall@10"]["dense_turns"] == 1.0
    assert final["recall@10"]["hybrid"] > 0.0
    lines = [json.loads(x) for x in (out / "questions.jsonl").read_text().splitlines()]
    assert len(lines) == 5 and {x["category"] for x in lines} == {1, 2, 4, 5}
    assert "D:9:9" in json.dumps(lines[-1])  # the unmatched evidence id is reported, not dropped
    # One conversation: no other to fit a query adapter on, so the shipped one searched it.
    assert summary["meta"]["query_adapter"] == "shipped"
    # the evaluation tenants are gone afterwards
    rows = await TenantGraph(services.driver, "probe").read(
        "MATCH (t:Turn) WHERE t.tenant STARTS WITH 'eval_smoke_1' AND $tenant = 'probe' RETURN count(t) AS n")
    assert rows[0]["n"] == 0


async def test_each_conversation_is_searched_through_an_adapter_fitted_on_the_others(services, tmp_path,
                                                                                    monkeypatch):
    from app.evaluation import adapter_fit

    fitted_on: list[list[str]] = []
    real_fit = adapter_fit.fit

    def fit(examples, **kw):
        fitted_on.append(sorted(e.conversation for e in examples))
        return real_fit(examples, **kw)

    monkeypatch.setattr(adapter_fit, "fit", fit)
    data = tmp_path / "two.json"
    data.write_text(json.dumps([SAMPLE[0], {**SAMPLE[0], "sample_id": "smoke-2"}]))
    summary = await run_locomo(services, data, tmp_path / "out", EvalConfig(ks=(5, 10), methods=["vector"],
                                                                         fit_adapter=tmp_path / "a.npy"))
    assert summary["meta"]["query_adapter"] == "held out"
    # Each conversation's map saw only the other's questions; the one written saw both.
    assert fitted_on == [["smoke-2"], ["smoke-1"], ["smoke-1", "smoke-2"]]
    from app.recollection.query_adapter import QueryAdapter

    assert QueryAdapter.load(tmp_path / "a.npy").matrix.shape == (services.embedder.dimensions,) * 2


async def test_a_held_out_set_can_be_searched_through_the_shipped_adapter_only(services, tmp_path, monkeypatch):
    from app.evaluation import adapter_fit

    def fit(examples, **kw):
        raise AssertionError("nothing is fitted on a held-out set measured as shipped")

    monkeypatch.setattr(adapter_fit, "fit", fit)
    data = tmp_path / "two.json"
    data.write_text(json.dumps([SAMPLE[0], {**SAMPLE[0], "sample_id": "smoke-2"}]))
    summary = await run_locomo(services, data, tmp_path / "out",
                               EvalConfig(ks=(5, 10), methods=["vector"], shipped=True))
    assert summary["meta"]["query_adapter"] == "shipped"
    assert json.loads(summary["final_line"])["recall@10"]["vector"] > 0.0


async def test_answering_mode_reports_judge_and_f1_with_a_stub_llm(services, tmp_path):
    from tests.llm_stub import OpenAIStub

    data = tmp_path / "smoke.json"
    data.write_text(json.dumps(SAMPLE))

    def reply(req):
        if "CORRECT or WRONG" in req.user_text:
            gold = req.user_text.split("Gold answer:")[1].split("\n")[0]
            return "CORRECT" if "Miso" in gold else "WRONG"
        return "Miso"

    with OpenAIStub() as stub:
        stub.default = reply
        svc = type(services)(services.settings.model_copy(update={
            "llm_base_url": stub.base_url, "llm_model": stub.model}), services.driver, services.embedder)
        summary = await run_locomo(svc, data, tmp_path / "out", EvalConfig(ks=(5, 10), methods=["hybrid"],
                                                                            answer=True))
    hybrid = summary["methods"]["hybrid"]["overall"]
    # "Miso" is right for 1 of the 4 scored questions: the judge and F1 both see it
    assert hybrid["judge"] == 0.25
    assert 0.0 < hybrid["f1"] < 1.0
    assert "judge" in (tmp_path / "out" / "summary.md").read_text()


async def test_the_ranker_is_measured_on_held_out_conversations_and_fitted_on_all(services, tmp_path):
    from app.recollection.ranker import Ranker

    second = json.loads(json.dumps(SAMPLE[0]))
    second["sample_id"] = "smoke-2"
    data = tmp_path / "two.json"
    data.write_text(json.dumps([SAMPLE[0], second]))
    fitted = tmp_path / "ranker.json"
    summary = await run_locomo(services, data, tmp_path / "out",
                               EvalConfig(ks=(5, 10), methods=["hybrid"], fit_ranker=fitted))
    cv = summary["methods"]["hybrid_cv"]["overall"]
    assert cv["n"] == 8 and 0.0 < cv["recall@10"] <= 1.0
    assert "hybrid_cv" in (tmp_path / "out" / "summary.md").read_text()
    model = Ranker.load(fitted)
    assert "2 conversations, 8 questions" in model.meta["fitted_on"]
