// One conversation at a glance: its MemCells in time order (startedAt), each with the
// entities it mentions. The graph view ties every cell to the conversation through the
// cell's first turn (Conversation-HAS_TURN->Turn<-EVIDENCED_BY-MemCell-MENTIONS->Entity).
// Conversation ids are the client's (for LoCoMo data: conv-26, conv-30, ...):
//   MATCH (c:Conversation {tenant: $tenant}) RETURN c.id
// In Neo4j Browser set:
//   :param tenant => 'default'
//   :param conversationId => 'conv-26'
MATCH (c:Conversation {tenant: $tenant, id: $conversationId})
MATCH (m:MemCell {tenant: $tenant, conversationId: c.id})
CALL (m) {
  OPTIONAL MATCH (m)-[men:MENTIONS]->(e:Entity {tenant: $tenant})
  WITH men, e ORDER BY e.name
  RETURN collect(men) AS mentions, collect(e) AS entities, collect(e.name) AS entityNames
}
OPTIONAL CALL (c, m) {
  MATCH (c)-[hasTurn:HAS_TURN]->(t:Turn {tenant: $tenant})<-[ev:EVIDENCED_BY]-(m)
  RETURN hasTurn, t AS firstTurn, ev ORDER BY t.seq LIMIT 1
}
RETURN m.startedAt AS startedAt, m.endedAt AS endedAt, m.title AS title, m.status AS status,
       entityNames,
       c, hasTurn, firstTurn, ev, m, mentions, entities
ORDER BY startedAt, m.id;
