// Every name merged into an entity, and every merge undone (splitEntity), newest first: the
// audit trail of entity resolution. Each record is the JSON the API's `merges` reads:
// surface (the name as said), method (key, alias, prefix, vector; manual by mergeEntities;
// split when undone by splitEntity), score (the vector's cosine), into (the entity the name
// has meant since) and at (when).
// A prefix or vector merge is the one to check; undo one with the splitEntity mutation.
// In Neo4j Browser set:
//   :param tenant => 'default'
MATCH (e:Entity {tenant: $tenant})
UNWIND e.merges AS record
RETURN e.name AS entity, e.aliases AS aliasesNow, record
ORDER BY record DESC  // each record begins with its time (its keys are sorted)
LIMIT 300;
