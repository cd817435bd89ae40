// A search scoped to a conversation, group or user.
//
// The vector indexes of turns, facts, foresight and scenes hold the properties a search is
// scoped by (app/store/vector.py INDEX_SCOPES), so a search of one conversation, group or user
// filters inside the index and fetches its neighbours from that scope. Filtered after the index,
// a search of one of a tenant's many conversations kept only what of the tenant's nearest
// 40 fell in it, often nothing. Dropped first: an index's properties cannot change; it is
// built again from the stored vectors (start-up waits for it, as for every migration).
//
// A fact or foresight written before gets its user here, once: the one user among its evidence
// turns, none when two users' turns prove it (app/construction/writer.py EVIDENCE).
MATCH (n:Fact) WHERE n.userId IS NULL
CALL (n) {
  MATCH (n)-[:EVIDENCED_BY]->(t:Turn) WHERE t.userId IS NOT NULL
  WITH collect(DISTINCT t.userId) AS users WHERE size(users) = 1
  SET n.userId = users[0]
} IN TRANSACTIONS OF 1000 ROWS;
MATCH (n:Foresight) WHERE n.userId IS NULL
CALL (n) {
  MATCH (n)-[:EVIDENCED_BY]->(t:Turn) WHERE t.userId IS NOT NULL
  WITH collect(DISTINCT t.userId) AS users WHERE size(users) = 1
  SET n.userId = users[0]
} IN TRANSACTIONS OF 1000 ROWS;
DROP INDEX fact_embedding IF EXISTS;
DROP INDEX scene_embedding IF EXISTS;
DROP INDEX foresight_embedding IF EXISTS;
DROP INDEX turn_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON n.embedding WITH [n.tenant, n.groupId, n.userId, n.conversationId] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX scene_embedding IF NOT EXISTS FOR (n:MemScene) ON n.embedding WITH [n.tenant, n.groupId, n.groupKey] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX foresight_embedding IF NOT EXISTS FOR (n:Foresight) ON n.embedding WITH [n.tenant, n.groupId, n.userId, n.conversationId] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON n.embedding WITH [n.tenant, n.groupId, n.userId, n.conversationId] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
// A keyword search of one conversation, group or user also reads that scope's own texts for the
// query's words (app/recollection/bm25.py proposals): found by these, with the turn key's
// (tenant, conversationId) and memcell_conversation.
CREATE INDEX turn_group IF NOT EXISTS FOR (n:Turn) ON (n.tenant, n.groupId);
CREATE INDEX turn_user IF NOT EXISTS FOR (n:Turn) ON (n.tenant, n.userId);
CREATE INDEX fact_conversation IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.conversationId);
CREATE INDEX fact_group IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.groupId);
CREATE INDEX fact_user IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.userId);
CREATE INDEX memcell_group IF NOT EXISTS FOR (n:MemCell) ON (n.tenant, n.groupId);
