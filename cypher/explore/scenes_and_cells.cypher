// A tenant's MemScenes (topic clusters of MemCells) and the cells each includes, in
// INCLUDES order.
// Fallback: a tenant without any MemScene yet (scenes not built) gets its cells instead,
// by conversation and time, with scene and topic null. For those cells with their entities,
// run conversation_overview.cypher.
// In Neo4j Browser set:
//   :param tenant => 'default'
CALL () {
  MATCH (s:MemScene {tenant: $tenant})
  OPTIONAL MATCH (s)-[inc:INCLUDES]->(m:MemCell {tenant: $tenant})
  RETURN s, inc, m
  UNION ALL
  MATCH (m:MemCell {tenant: $tenant})
  WHERE NOT EXISTS { MATCH (:MemScene {tenant: $tenant}) }
  RETURN null AS s, null AS inc, m
}
RETURN s.topic AS topic, s.status AS sceneStatus, inc.order AS order,
       m.conversationId AS conversationId, m.startedAt AS startedAt, m.title AS cell,
       s, inc, m
ORDER BY s.topic, s.id, inc.order, m.conversationId, m.startedAt
LIMIT 300;
