"""Every vector query's fallback (run when Neo4j's filtered vector search fails: app/store/vector.py)
is valid Cypher and finds what its primary form finds. The fallback runs rarely, after deletions,
so a mistake in it would otherwise surface in production first."""
from app.construction.entity_resolution import BY_VECTOR as ENTITIES
from app.construction.ingest import Ingestor
from app.lifecycle.scene_store import NEAREST_SCENES
from app.recollection import filters
from app.recollection.channels import graph as graph_channel
from app.recollection.channels import nearest
from app.recollection.request import SearchRequest
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
    req = SearchRequest(query="Can you suggest a restaurant for dinner with Maya?").validated(100, 4)
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
    for text in (req.query, "?"):
        ctx = search_context(services, graph, SearchRequest(query=text).validated(100, 4), embedding)
        query, params = await nearest.plan(ctx)
        columns = set(query.primary.rsplit("RETURN ", 1)[1].replace(" ", "").split(","))
        # Every entity is a hub here, so "Maya" brings every part; "?" names nothing.
        assert columns == ({"around", "facts", "foresight", "hubCells", "scenes", "turns"} if text != "?"
                           else {"facts", "foresight", "scenes", "turns"})
        cases[f"search vector query for {text!r}"] = (query, params)
    for name, (query, params) in cases.items():
        primary = found(await graph.read(query.primary, **params))
        fallback = found(await graph.read(query.fallback, **params))
        assert primary, name
        assert fallback == primary, name



def test_a_part_without_the_tenant_filter_is_refused_even_beside_parts_with_it():
    import pytest

    from app.store.graph import TenantError
    from app.store.vector import VectorQuery, vector_query

    good = vector_query("Turn", "turn_embedding", "RETURN collect(elementId(n)) AS turns")
    leaky = VectorQuery("MATCH (n:Fact) RETURN collect(elementId(n)) AS facts",
                        "MATCH (n:Fact) RETURN collect(elementId(n)) AS facts")
    assert "$tenant" in nearest.combined((("turns", good, frozenset(), ()),)).primary
    with pytest.raises(TenantError):
        nearest.combined((("facts", leaky, frozenset(), ()), ("turns", good, frozenset(), ())))
