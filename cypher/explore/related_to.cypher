// What relates to X within 2 hops, over relations true now (begun, and not ended: a job that
// starts next month is not one yet) and not forgotten. The entity is found by name or alias,
// case-insensitively. In Neo4j Browser:
//   :param tenant => 'default'
//   :param name => 'Caroline'
//   :param group => null     (or the group's id: each group has its own entities)
// (the same query the API's relatedTo runs; see app/recollection/related.py)
MATCH (s:Entity {tenant: $tenant})
WHERE s.key = toLower(trim($name)) OR toLower(s.name) = toLower(trim($name))
   OR toLower(trim($name)) IN s.aliasKeys
WITH s WHERE $group IS NULL OR s.groupId = $group
MATCH p = (s)-[rels:RELATED*1..2]-(e:Entity {tenant: $tenant})
WHERE e <> s AND all(r IN rels WHERE r.tenant = $tenant AND coalesce(r.forgotten, false) = false
                       AND r.validFrom <= datetime() AND (r.validTo IS NULL OR r.validTo > datetime()))
RETURN p LIMIT 100;
