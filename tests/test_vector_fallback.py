"""Every vector query's fallback (run when Neo4j's filtered vector search fails: app/store/vector.py)
is valid Cypher and finds what its primary form finds. The fallback runs rarely, after deletions,
so a mistake in it would otherwise surface in production first."""
from app.construction.entity_resolution import BY_VECTOR as ENTITIES
from app.construction.ingest import Ingestor
from app.lifecycle.scene_store import NEAREST_SCENES
from app.recollection import filters
from app.recollection.channels import foresight, scene
from app.recollection.channels.vector import NEAR_FACTS, NEAR_TURNS
from app.recollection.request import SearchRequest
from tests.conversation import maya_and_sam


def found(rows: list[dict]) -> dict:
    """{key: score} of a query's rows, whether returned as records or collected into lists."""
    out = {}
    for r in rows:
        lists = [v for v in r.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
        for item in (x for lst in lists for x in lst) if lists else [r]:
            key = item.get("key") or item.get("id")
            out[key] = round(float(item["score"]), 6) if "score" in item else None
    return out


async def test_each_vector_query_finds_the_same_through_its_fallback(services, graph):
    await Ingestor(services).memorize(graph.tenant, "c1", maya_and_sam(), flush=True)
    req = SearchRequest(query="Can you suggest a restaurant for dinner with Maya?").validated(100, 4)
    vector = services.vector_param((await services.require_embedder().aembed([req.query]))[0])
    common = dict(vector=vector, fetch=60, limit=20, **filters.params(req))
    group = (await graph.read("MATCH (s:MemScene {tenant: $tenant}) RETURN s.groupKey AS g LIMIT 1"))[0]["g"]
    lucene = f"+(text:(restaurant dinner) OR trigger:(restaurant dinner)) +tenant:{graph.tenant}"
    cases = {
        "facts": (NEAR_FACTS, common),
        "turns": (NEAR_TURNS, common),
        "foresight": (foresight.BY_VECTOR, dict(common, minScore=0.5)),
        "foresight and words": (foresight.BOTH, dict(common, minScore=0.5, lucene=lucene,
                                                     terms=["restaurant", "dinner"])),
        "scenes": (scene.NEAREST, dict(common, statuses=["active"])),
        "entities": (ENTITIES, {"vector": vector}),
        "scenes of a group": (NEAREST_SCENES, {"vector": vector, "fetch": 10, "limit": 5,
                                               "groupKey": group}),
    }
    for name, (query, params) in cases.items():
        primary = found(await graph.read(query.primary, **params))
        fallback = found(await graph.read(query.fallback, **params))
        assert primary, name
        assert fallback == primary, name
