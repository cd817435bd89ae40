"""The Cypher of scenes: reading cells and scenes of a group, writing memberships and summaries.

Scenes compare cells by their topic vector (`topicVector`: the embedding of the cell's keywords,
computed once, the first time the cell is placed): the cell's own vector is the mean of its
turns', which carry speakers, dates and small talk, and clustered scenes by who and when rather
than what (measured on a test conversation: the same project on two days 0.13 apart after
centring, against 0.57 with keyword vectors).

A group is the tenant's cells sharing a groupId; cells without one form the group ''. Scenes
never span groups. Each scene keeps the sum and count of its members' vectors (`vectorSum`,
`cells`) so a new cell can be compared with it without reading its members.
"""
from __future__ import annotations

import numpy as np

from app.store.graph import TenantGraph, TenantTx
from app.store.locking import TENANT_WRITE_LOCK, still_there
from app.store.vector import vector_query

GROUP_KEYS = """
MATCH (m:MemCell {tenant: $tenant, status: 'active'})
WHERE $groupKey IS NULL OR coalesce(m.groupId, '') = $groupKey
RETURN DISTINCT coalesce(m.groupId, '') AS groupKey ORDER BY groupKey
"""

# A cell's topic vector as one VECTOR value, not a list: the driver turns a list into Python
# floats one by one (Record.data() checks every element's type), which took ~2 ms per cell, about
# 200 s of a 100k-cell group's read and ~1 GB of float objects; a VECTOR arrives as bytes
# (bench/results/README.md, consolidation). FLOAT32 is exact: topic vectors come from the model
# as float32. NULL when the cell has none yet.
TOPIC_VECTOR = ("CASE WHEN size(m.topicVector) > 0 "
                "THEN VECTOR(m.topicVector, size(m.topicVector), FLOAT32) END AS embedding")

# Every active cell of a group, in time order, with the scene it is in now.
GROUP_CELLS = f"""CYPHER 25
MATCH (m:MemCell {{tenant: $tenant, status: 'active'}}) WHERE coalesce(m.groupId, '') = $groupKey
OPTIONAL MATCH (s:MemScene {{tenant: $tenant}})-[:INCLUDES]->(m)
WITH m, min(s.id) AS sceneId
RETURN m.id AS id, {TOPIC_VECTOR}, m.keywords AS keywords, m.title AS title, sceneId
ORDER BY m.startedAt, m.id
"""

# Cells of a conversation not yet in any scene (new, or left over by an interrupted run).
UNASSIGNED = f"""CYPHER 25
MATCH (m:MemCell {{tenant: $tenant, conversationId: $conversationId}})
WHERE m.status = 'active' AND NOT EXISTS {{ MATCH (:MemScene)-[:INCLUDES]->(m) }}
RETURN m.id AS id, {TOPIC_VECTOR}, m.keywords AS keywords, m.title AS title,
       coalesce(m.groupId, '') AS groupKey, m.groupId AS groupId
ORDER BY m.startedAt, m.id
"""


async def read_cells(graph: TenantGraph, query: str, **params) -> list[dict]:
    """Rows of GROUP_CELLS or UNASSIGNED, `embedding` as a float32 array (None: not computed yet)."""
    rows = await graph.read(query, **params)
    for r in rows:
        if r["embedding"] is not None:
            r["embedding"] = r["embedding"].to_numpy().astype(np.float32)
    return rows

GROUP_SIZE = """
MATCH (m:MemCell {tenant: $tenant, status: 'active'}) WHERE coalesce(m.groupId, '') = $groupKey
RETURN count(m) AS n
"""

CENTRE = """
MATCH (c:SceneCentre {tenant: $tenant, groupKey: $groupKey})
RETURN c.vectorSum AS vectorSum, c.cells AS cells, c.keywords AS keywords, c.keywordCounts AS counts,
       c.consolidatedAt AS consolidatedAt, c.consolidatedCells AS consolidatedCells
"""

SAVE_CENTRE = """
MERGE (c:SceneCentre {tenant: $tenant, groupKey: $groupKey})
SET c.vectorSum = $vectorSum, c.cells = $cells, c.keywords = $keywords, c.keywordCounts = $counts,
    c.updatedAt = datetime()
"""

MARK_CONSOLIDATED = """
MATCH (c:SceneCentre {tenant: $tenant, groupKey: $groupKey})
SET c.consolidatedAt = datetime(), c.consolidatedCells = $cells
"""

# The nearest scenes of the group to a cell: candidates, re-scored on centred vectors in Python.
NEAREST_SCENES = vector_query("MemScene", "scene_embedding", """
WITH n, score WHERE n.groupKey = $groupKey
RETURN n.id AS id, n.vectorSum AS vectorSum, n.cells AS cells
ORDER BY score DESC LIMIT $limit
""")

# Cells move: every edge into a batch's cells goes, then each gets its one new scene. Run in
# one transaction per batch, so at every moment a cell is in at most one scene.
DETACH_CELLS = """
UNWIND $cellIds AS cid
MATCH (:MemScene {tenant: $tenant})-[r:INCLUDES]->(m:MemCell {tenant: $tenant, id: cid})
DELETE r
"""

UPSERT_SCENES = """
UNWIND $scenes AS sc
MERGE (s:MemScene {tenant: $tenant, id: sc.id})
  ON CREATE SET s.createdAt = datetime(), s.status = 'active', s.topic = '', s.consensus = ''
SET s.groupId = sc.groupId, s.groupKey = sc.groupKey, s.vectorSum = sc.vectorSum,
    s.cells = sc.cells, s.embedding = sc.embedding, s.updatedAt = datetime()
WITH s, sc
UNWIND sc.members AS mb
MATCH (m:MemCell {tenant: $tenant, id: mb.id})
MERGE (s)-[i:INCLUDES]->(m)
SET i.order = mb.order
"""

# After a re-clustering, scenes that lost all their members.
DROP_SCENES = """
UNWIND $ids AS sid
MATCH (s:MemScene {tenant: $tenant, id: sid})
WHERE NOT EXISTS { MATCH (s)-[:INCLUDES]->(:MemCell {status: 'active'}) }
DETACH DELETE s
"""

# What a summary needs of each scene: member cells in time order, current facts (a bounded
# number, newest first), whether its state still holds, whether another scene took it over.
SUMMARY_INPUT = """
UNWIND $ids AS sid
MATCH (s:MemScene {tenant: $tenant, id: sid})
CALL (s) {
  MATCH (s)-[:INCLUDES]->(m:MemCell) WHERE m.status = 'active'
  WITH m ORDER BY m.startedAt, m.id
  RETURN collect(m {.id, .title, .keywords, .startedAt, .endedAt}) AS cells
}
// The consensus reads the facts of the scene's most recent episodes, plus its state facts
// (single-valued, whatever their age): a scene of a thousand episodes is not sorted whole
// every time one episode joins it.
// (An aggregating subquery returns one row even for a scene without facts.)
CALL (s) {
  CALL (s) {
    MATCH (s)-[:INCLUDES]->(m:MemCell {status: 'active'})
    WITH m ORDER BY m.startedAt DESC, m.id LIMIT $recentCells
    MATCH (m)-[:HAS_FACT]->(f:Fact {status: 'current'})
    RETURN f
    UNION
    MATCH (s)-[:INCLUDES]->(:MemCell {status: 'active'})-[:HAS_FACT]->(f:Fact {status: 'current'})
    WHERE f.singleValued
    RETURN f
  }
  WITH f ORDER BY f.validFrom DESC, f.confidence DESC, f.id
  RETURN collect(f {.text, .singleValued, .validFrom, .confidence})[..$facts] AS current
}
RETURN s.id AS id, cells, current,
  EXISTS { MATCH (s)-[:INCLUDES]->(:MemCell {status: 'active'})-[:HAS_FACT]->(f:Fact {status: 'current'})
           WHERE f.singleValued } AS hasCurrentState,
  EXISTS { MATCH (s)-[:INCLUDES]->(:MemCell)-[:HAS_FACT]->(:Fact)-[:SUPERSEDED_BY]->(:Fact)
                 <-[:HAS_FACT]-(:MemCell)<-[:INCLUDES]-(o:MemScene) WHERE o <> s } AS supersededElsewhere
"""

SAVE_SUMMARIES = """
UNWIND $rows AS r
MATCH (s:MemScene {tenant: $tenant, id: r.id})
SET s.topic = r.topic, s.consensus = r.consensus, s.status = r.status,
    s.startedAt = r.startedAt, s.endedAt = r.endedAt, s.updatedAt = datetime()
WITH s, r
UNWIND range(0, size(r.cellIds) - 1) AS i
MATCH (s)-[inc:INCLUDES]->(:MemCell {tenant: $tenant, id: r.cellIds[i]})
// A new cell usually comes last: the others keep their order, and are not rewritten.
WITH inc, i WHERE inc.order IS NULL OR inc.order <> i + 1
SET inc.order = i + 1
"""

# Scenes whose facts were superseded by the facts of the given cells: their status may change.
SUPERSEDED_SCENES = """
UNWIND $cellIds AS cid
MATCH (:MemCell {tenant: $tenant, id: cid})-[:HAS_FACT]->(:Fact)<-[:SUPERSEDED_BY]-(:Fact)
      <-[:HAS_FACT]-(:MemCell)<-[:INCLUDES]-(s:MemScene {tenant: $tenant})
RETURN DISTINCT s.id AS id
"""

SET_TOPIC_VECTORS = """
UNWIND $rows AS r
MATCH (m:MemCell {tenant: $tenant, id: r.id}) SET m.topicVector = r.vector
"""

SCENE_IDS_OF_GROUP = """
MATCH (s:MemScene {tenant: $tenant, groupKey: $groupKey}) RETURN s.id AS id ORDER BY id
"""


async def _unless_purging(tx: TenantTx) -> bool:
    """Under the tenant's write lock: False while `forget everything` runs. A scene or centre
    written then (a consolidation that read the cells before they went) would outlive the
    purge: scenes and centres are MERGEd, and a centre's vector sums the forgotten episodes'."""
    [lock] = await tx.run(TENANT_WRITE_LOCK)
    return not lock["purging"]


async def write_memberships(graph: TenantGraph, scenes: list[dict]) -> None:
    """`scenes`: {id, groupId, groupKey, vectorSum, cells, embedding, members: [{id, order}]}."""
    async def work(tx: TenantTx) -> None:
        if await _unless_purging(tx):
            await tx.run(DETACH_CELLS, cellIds=[m["id"] for s in scenes for m in s["members"]])
            await tx.run(UPSERT_SCENES, scenes=scenes)

    await graph.write_tx(work)


async def save_centre(graph: TenantGraph, **params) -> None:
    """SAVE_CENTRE, written only while no purge of the tenant runs."""
    async def work(tx: TenantTx) -> None:
        if await _unless_purging(tx):
            await tx.run(SAVE_CENTRE, **params)

    await graph.write_tx(work)

MEMBER_VECTORS = """
UNWIND $ids AS sid
MATCH (s:MemScene {tenant: $tenant, id: sid})
OPTIONAL MATCH (s)-[:INCLUDES]->(m:MemCell {status: 'active'})
RETURN s.id AS id, s.groupKey AS groupKey, collect(m.topicVector) AS vectors
"""

SET_VECTORS = """
UNWIND $scenes AS sc
MATCH (s:MemScene {tenant: $tenant, id: sc.id})
SET s.vectorSum = sc.vectorSum, s.cells = sc.cells, s.embedding = sc.embedding, s.updatedAt = datetime()
"""

# Two forgets at once both find a scene empty: each deletes and counts it once.
DELETE_SCENES = f"""
UNWIND $ids AS sid
MATCH (s:MemScene {{tenant: $tenant, id: sid}})
{still_there("s")}
DETACH DELETE s
RETURN count(*) AS deleted
"""

DELETE_CENTRE = """
MATCH (c:SceneCentre {tenant: $tenant, groupKey: $groupKey}) DELETE c
"""
