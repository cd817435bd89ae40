"""Scene channel: the MemScenes nearest to the query, each with the consensus of its topic,
proved by the turns of its member episodes closest to the query.

A scene answers "where do things stand with X" better than any single episode. Its evidence is
taken from its two member cells nearest the query (then their three nearest turns that pass
the request's filters), so a scene of a thousand episodes costs a thousand cosines, not a scan
of its turns. Archived scenes (their state taken over elsewhere) only come back when the
request looks at the past (asOf) or asks for superseded memory. As of a moment, only scenes
whose episodes were all said by then come back: a consensus is written from what its facts
say now, and one holding later episodes would answer the past with what became true after it.
"""
from __future__ import annotations

from app.recollection import filters
from app.recollection.channels.base import Candidate, SearchContext, VectorPart, candidate
from app.store.vector import vector_query

SCENES = 3

NEAREST = vector_query("MemScene", "scene_embedding", f"""
WITH s, score WHERE s.status IN $statuses AND ($groupId IS NULL OR s.groupId = $groupId)
  AND ($asOf IS NULL OR s.endedAt <= $asOf)
WITH s, score ORDER BY score DESC LIMIT $limit
CALL (s) {{
  MATCH (s)-[:INCLUDES]->(m:MemCell {{status: 'active'}})
  WITH m ORDER BY vector.similarity.cosine(m.embedding, $adapted) DESC LIMIT 2
  MATCH (m)-[:EVIDENCED_BY]->(t:Turn)
  WITH t AS n WHERE {filters.TURN}
  WITH n ORDER BY vector.similarity.cosine(n.embedding, $adapted) DESC LIMIT 3
  RETURN collect([elementId(n), n.speaker]) AS evidence
}}
RETURN collect({{key: elementId(s), score: score, topic: s.topic, evidence: evidence}}) AS scenes
""", var="s")


class SceneChannel:
    name = "scene"

    def vector_parts(self, ctx: SearchContext) -> list[VectorPart]:
        req = ctx.request
        if "scene" not in req.kinds:
            return []
        statuses = ["active", "archived"] if (req.as_of or req.include_superseded) else ["active"]
        return [VectorPart("scenes", NEAREST, {"fetch": SCENES * 4, "limit": SCENES, "statuses": statuses})]

    async def search(self, ctx: SearchContext) -> list[Candidate]:
        if "scene" not in ctx.request.kinds:
            return []
        rows = sorted(await ctx.nearest("scenes"), key=lambda r: (-r["score"], r["key"]))
        return [candidate("scene", r, float(r["score"]), f"scene: {r['topic']}")
                for r in rows if r["evidence"]]
