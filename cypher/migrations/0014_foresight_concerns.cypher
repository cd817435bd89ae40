// Foresight is about someone: (:Foresight)-[:CONCERNS]->(:Entity), the entity whose name or
// alias its text begins with ("Maya is allergic to peanuts"), the longest name first, among
// the entities its episode mentions (the rule ingestion follows:
// app/construction/entity_resolution.py Resolution.concerned). Foresight written before gets
// its edge here, once; one whose text begins with no such name ("Maya's son has asthma") none.
MATCH (m:MemCell)-[:PREDICTS]->(f:Foresight)
WHERE NOT EXISTS { (f)-[:CONCERNS]->() }
CALL (m, f) {
  MATCH (m)-[:MENTIONS]->(e:Entity)
  WHERE e.tenant = f.tenant
  UNWIND [e.name] + coalesce(e.aliases, []) AS name
  WITH e, name WHERE name IS NOT NULL AND f.text STARTS WITH name + ' '
  WITH e ORDER BY size(name) DESC, e.key LIMIT 1
  CREATE (f)-[:CONCERNS]->(e)
} IN TRANSACTIONS OF 1000 ROWS;
