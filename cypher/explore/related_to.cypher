// What relates to X within 2 hops, over relations true now (begun, and not ended: a job that
// starts next month is not one yet) and not forgotten. The entity is found by name or alias,
// case-insensitively. In Neo4j Browser:
//   :param tenant => 'default'
//   :param name => 'Caroline'
//   :param group => null     (or the group's id: each group has its own entities)
// (the same query the API's relatedTo runs; see app/recollection/related.py)
MATCH (s:Entity {tenant: $tenant})
WHERE (s.key = toLower(trim($name)) OR toLower(s.name) = toLower(trim($name))
   OR toLower(trim($name)) IN s.aliasKeys)
  AND ($group IS NULL OR s.groupId = $group)
// One entity, as the API picks it: the name itself before an alias, then (without a group:
// one name in two groups is two entities) no group's first, then the most mentioned.
WITH s ORDER BY CASE WHEN toLower(s.name) = toLower(trim($name)) OR s.key = toLower(trim($name)) THEN 0 ELSE 1 END,
     CASE WHEN s.groupId IS NULL THEN 0 ELSE 1 END, COUNT { (s)<-[:MENTIONS]-() } DESC, s.id
LIMIT 1
MATCH p = (s)-[rels:RELATED*1..2]-(e:Entity {tenant: $tenant})
WHERE e <> s AND all(r IN rels WHERE r.tenant = $tenant AND coalesce(r.forgotten, false) = false
                       AND r.validFrom <= datetime() AND (r.validTo IS NULL OR r.validTo > datetime()))
RETURN p LIMIT 100;
