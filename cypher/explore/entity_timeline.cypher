// Timeline of the facts about one entity, oldest first (by validFrom). Superseded facts are
// included: the `status` column says 'current', 'superseded' or 'retracted' (said in error and
// taken back at once: never true), validTo says when a fact stopped being true, and the SUPERSEDED_BY edge (graph view) points to the fact that replaced
// it. `role` is how the fact is about the entity (subject, object or mentioned).
// The entity is found by name or alias, case-insensitively (as the API's entity lookup does).
// In Neo4j Browser set:
//   :param tenant => 'default'
//   :param name => 'Caroline'
//   :param group => null     (or the group's id: each group has its own entities)
// Graph view draws entity, facts and SUPERSEDED_BY edges; the Table view is the timeline.
MATCH (e:Entity {tenant: $tenant})
WHERE (e.key = toLower(trim($name)) OR toLower(e.name) = toLower(trim($name))
   OR toLower(trim($name)) IN e.aliasKeys)
  AND ($group IS NULL OR e.groupId = $group)
// One entity, as the API picks it: the name itself before an alias, then (without a group:
// one name in two groups is two entities) no group's first, then the most mentioned.
WITH e ORDER BY CASE WHEN toLower(e.name) = toLower(trim($name)) OR e.key = toLower(trim($name)) THEN 0 ELSE 1 END,
     CASE WHEN e.groupId IS NULL THEN 0 ELSE 1 END, COUNT { (e)<-[:MENTIONS]-() } DESC, e.id
LIMIT 1
MATCH (f:Fact {tenant: $tenant})-[about:ABOUT]->(e)
OPTIONAL MATCH (f)-[sup:SUPERSEDED_BY]->(newer:Fact {tenant: $tenant})
RETURN e.name AS entity, e.groupId AS group, f.validFrom AS validFrom, f.validTo AS validTo, f.status AS status,
       about.role AS role,
       f.text AS text, newer.text AS supersededBy,
       e, about, f, sup, newer
ORDER BY validFrom, f.id
LIMIT 300;
