"""Every vector query's fallback (run when Neo4j's filtered vector search fails: app/store/vector.py)
is valid Cypher and finds what its primary form finds. The fallback runs rarely, after deletions,
so a mistake in it would otherwise surface in production first."""
from app.construction.entity_resolution import BY_VECTOR as ENTITIES
from app.construction.ingest import Ingestor
from app.lifecycle.scene_store import NEAREST_SCENES
from app.recollection.channels import graph as graph_channel
from app.recollection.channels import nearest
from app.recollection.request import SearchRequest
from app.store.vector import VectorQuery
from tests.contexts import search_context
from tests.conversation import maya_and_sam


def found(rows: list[dict]) -> dict:
    """{key: score} of a query's rows, whether returned as records or collected into lists (or
    into maps of lists)."""
    out = {}
    for r in rows:
        values = [x for v in r.values() for x in (v.values() if isinstance(v, dict) else [v])]
        lists = [v for v in values if isinstance(v, list) and v and isinstance(v[0], dict)]
        for item in (x for lst in lists for x in lst) if lists else [r]:
            key = item.get("key") or item.get("id")
            out[key] = round(float(item["score"]), 6) if "score" in item else None
    return out


async def test_each_vector_query_finds_the_same_through_its_fallback(services, graph, monkeypatch):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    # A query near the allergy's trigger (over the foresight part's similarity threshold), so that
    # the foresight part finds it by vector, not only by words.
    req = SearchRequest(query="Can you order some food for Maya?").validated(100, 4)
    embedding = (await services.require_embedder().aembed([req.query]))[0]
    vector = services.vector_param(embedding)
    group = (await graph.read("MATCH (s:MemScene {tenant: $tenant}) RETURN s.groupKey AS g LIMIT 1"))[0]["g"]
    cases = {
        "entities": (ENTITIES, {"vector": vector}),
        "scenes of a group": (NEAREST_SCENES, {"vector": vector, "fetch": 10, "limit": 5,
                                               "groupKey": group}),
    }
    # A search's vector query (channels/nearest.py), with every channel's part in it, and with
    # the foresight part in its other form (a query without words).
    monkeypatch.setattr(graph_channel, "HUB_DEGREE", 0)
    # And of one conversation: its indexes filter on it too (app/store/vector.py INDEX_SCOPES).
    for text, conversation in ((req.query, None), ("?", None), (req.query, "c1")):
        ctx = search_context(services, graph, SearchRequest(query=text, conversation_id=conversation)
                             .validated(100, 4), embedding)
        spec, params = await nearest.plan(ctx)
        columns = {part[0] for part in spec}
        # Every entity is a hub here, so "Maya" brings every part; "?" names nothing.
        assert columns == ({"around", "byMeaning", "facts", "foresight", "hubCells", "scenes", "turns"} if text != "?"
                           else {"facts", "foresight", "scenes", "turns"})
        scope = nearest.scope_of(spec, params)
        assert scope == (frozenset({"conversationId"}) if conversation else frozenset())
        cases[f"search vector query for {text!r} in {conversation}"] = (
            VectorQuery(nearest.combined(spec, scope=scope), nearest.combined(spec, frozenset(columns), scope)),
            params)
    for name, (query, params) in cases.items():
        rows = await graph.read(query.primary, **params)
        primary = found(rows)
        fallback = found(await graph.read(query.fallback, **params))
        # found() gives {None: None} for rows whose lists are all empty: that finds nothing.
        assert primary and None not in primary, name
        # Nor may any one part of a search's query find nothing, or its fallback is not compared.
        if name.startswith("search"):
            assert [c for c, v in rows[0].items() if None in found([{c: v}])] == [], name
        assert fallback == primary, name



def test_a_part_without_the_tenant_filter_is_refused_even_beside_parts_with_it():
    import pytest

    from app.store.graph import TenantError
    from app.store.vector import VectorQuery, vector_query

    good = vector_query("Turn", "turn_embedding", "RETURN collect(elementId(n)) AS turns")
    leaky = VectorQuery("MATCH (n:Fact) RETURN collect(elementId(n)) AS facts",
                        "MATCH (n:Fact) RETURN collect(elementId(n)) AS facts")
    assert "$tenant" in nearest.combined((("turns", good, frozenset(), ()),))
    with pytest.raises(TenantError):
        nearest.combined((("facts", leaky, frozenset(), ()), ("turns", good, frozenset(), ())))


async def test_a_part_that_hits_the_bug_runs_exact_alone_and_is_remembered(services, graph, monkeypatch):
    """The bug, reproduced: a scratch index where another tenant's nodes were written and some
    deleted fails a filtered search for this tenant (none of its nodes there). Only that part
    runs exact; the others keep the index and find what they found without it."""
    import uuid

    from app.recollection.channels.base import VectorPart
    from app.store.vector import vector_query

    monkeypatch.setattr(nearest, "_exact_until", {})
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    req = SearchRequest(query="Where does Maya live?").validated(100, 4)
    embedding = (await services.require_embedder().aembed([req.query]))[0]
    alone = await nearest.run(search_context(services, graph, req, embedding))

    suffix = uuid.uuid4().hex[:8]
    label, index = f"Scratch{suffix}", f"scratch_{suffix}"
    run = services.driver.execute_query
    await run(f"CYPHER 25 CREATE VECTOR INDEX {index} FOR (n:{label}) ON n.embedding WITH [n.tenant] "
              "OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}")
    try:
        await run("CALL db.awaitIndexes(60)")
        await run(f"UNWIND range(1, 50) AS i CREATE (:{label} {{tenant: 'someone_else', embedding: $e}})",
                  e=[float(x) for x in embedding])
        await run(f"MATCH (n:{label}) WITH n LIMIT 10 DELETE n")
        probes = []
        failing = nearest._failing

        async def counted(*args):
            probes.append(1)
            return await failing(*args)

        monkeypatch.setattr(nearest, "_failing", counted)
        for _ in range(2):
            ctx = search_context(services, graph, req, embedding)
            ctx.parts["scratch"] = VectorPart("scratch", vector_query(
                label, index, "RETURN collect(elementId(n)) AS scratch"), {"fetch": 5})
            out = await nearest.run(ctx)
            assert out["scratch"] == []
            assert {c: found([{c: v}]) for c, v in out.items() if c != "scratch"} == \
                {c: found([{c: v}]) for c, v in alone.items()}
            spec, _ = await nearest.plan(ctx)
            assert nearest.exact_columns(graph, spec) == {"scratch"}
        assert len(probes) == 1  # the second search knew which part to run exact
    finally:
        await run(f"MATCH (n:{label}) DELETE n")
        await run(f"DROP INDEX {index} IF EXISTS")
