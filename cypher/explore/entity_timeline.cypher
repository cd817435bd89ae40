// Timeline of the facts about one entity, oldest first (by validFrom). Superseded facts are
// included: the `status` column says 'current' or 'superseded', validTo says when a fact
// stopped being true, and the SUPERSEDED_BY edge (graph view) points to the fact that replaced
// it. `role` is how the fact is about the entity (subject, object or mentioned).
// The entity is found by name or alias, case-insensitively (as the API's entity lookup does).
// In Neo4j Browser set:
//   :param tenant => 'default'
//   :param name => 'Caroline'
//   :param group => null     (or the group's id: each group has its own entities)
// Graph view draws entity, facts and SUPERSEDED_BY edges; the Table view is the timeline.
MATCH (e:Entity {tenant: $tenant})
WHERE e.key = toLower(trim($name)) OR toLower(e.name) = toLower(trim($name))
   OR toLower(trim($name)) IN e.aliasKeys
WITH e WHERE $group IS NULL OR e.groupId = $group
MATCH (f:Fact {tenant: $tenant})-[about:ABOUT]->(e)
OPTIONAL MATCH (f)-[sup:SUPERSEDED_BY]->(newer:Fact {tenant: $tenant})
RETURN f.validFrom AS validFrom, f.validTo AS validTo, f.status AS status, about.role AS role,
       f.text AS text, newer.text AS supersededBy,
       e, about, f, sup, newer
ORDER BY validFrom, f.id
LIMIT 300;
