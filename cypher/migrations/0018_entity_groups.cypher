// An entity is its group's: `Entity.groupKey` (the group's id, '' for conversations without
// one) and `groupId` (null for none). Three families' "Anna" are three people, each with her own
// facts, aliases and relations, and what one family says of its Anna ("Anna lives in York")
// closes nothing of another's: a fact's timeline key (`Fact.subjectKey`) is its subject's key
// in its group ("anna@family-2": app/construction/entity_resolution.py timeline_key).
//
// An entity written before was the tenant's, whichever group named it. Here it becomes the
// group's whose episodes, facts and foresight name it most; for each other group naming it, a
// copy of it (its names, aliases, merge records, vector) takes that group's mentions, facts,
// foresight and relations. Its keyword statistics count each copy, as ingestion would have.
// Relations come over by their own group (migration 0015), so both ends are in one group.
// Run once by the migrations, for every tenant ($tenant null); backup_import runs its middle
// statements again for the tenant it imports (an export made before it holds entities of no
// group): each touches only what is not yet a group's.
CREATE INDEX entity_group_key IF NOT EXISTS FOR (n:Entity) ON (n.tenant, n.groupKey, n.key);
MATCH (e:Entity) WHERE e.groupKey IS NULL AND ($tenant IS NULL OR e.tenant = $tenant)
CALL (e) {
  CALL (e) {
    UNWIND COLLECT { MATCH (e)<-[:MENTIONS]-(m:MemCell) RETURN coalesce(m.groupId, '') }
         + COLLECT { MATCH (e)<-[:ABOUT]-(f:Fact) RETURN coalesce(f.groupId, '') }
         + COLLECT { MATCH (e)<-[:CONCERNS]-(x:Foresight) RETURN coalesce(x.groupId, '') } AS g
    WITH g, count(*) AS n ORDER BY n DESC, g
    RETURN collect(g) AS groups
  }
  SET e.groupKey = coalesce(groups[0], ''), e.otherGroups = CASE WHEN size(groups) > 1 THEN groups[1..] END,
      e.groupId = CASE WHEN coalesce(groups[0], '') = '' THEN null ELSE groups[0] END
} IN TRANSACTIONS OF 500 ROWS;
MATCH (e:Entity) WHERE size(coalesce(e.otherGroups, [])) > 0 AND ($tenant IS NULL OR e.tenant = $tenant)
CALL (e) {
 CALL (e) {
  UNWIND e.otherGroups AS g
  CREATE (c:Entity {id: 'ent_' + substring(replace(randomUUID(), '-', ''), 0, 20), tenant: e.tenant,
                    groupKey: g, key: e.key})
  SET c.groupId = CASE WHEN g = '' THEN null ELSE g END, c.name = e.name, c.type = e.type,
      c.aliases = e.aliases, c.aliasKeys = e.aliasKeys, c.aliasText = e.aliasText, c.merges = e.merges,
      c.splitKeys = e.splitKeys, c.embedding = e.embedding, c.terms = e.terms, c.termFreqs = e.termFreqs,
      c.termCount = e.termCount, c.createdAt = e.createdAt
  WITH e, c, g
  CALL (e, c, g) {
    MATCH (m:MemCell)-[r:MENTIONS]->(e) WHERE coalesce(m.groupId, '') = g
    CREATE (m)-[r2:MENTIONS]->(c) SET r2 = properties(r)
    DELETE r
  }
  CALL (e, c, g) {
    MATCH (f:Fact)-[r:ABOUT]->(e) WHERE coalesce(f.groupId, '') = g
    CREATE (f)-[r2:ABOUT]->(c) SET r2 = properties(r)
    DELETE r
  }
  CALL (e, c, g) {
    MATCH (x:Foresight)-[r:CONCERNS]->(e) WHERE coalesce(x.groupId, '') = g
    CREATE (x)-[:CONCERNS]->(c)
    DELETE r
  }
  CALL (e, c, g) {
    MATCH (e)-[r:RELATED]->(o:Entity) WHERE coalesce(r.groupId, '') = g AND o <> e
    CREATE (c)-[r2:RELATED]->(o) SET r2 = properties(r)
    DELETE r
  }
  CALL (e, c, g) {
    MATCH (o:Entity)-[r:RELATED]->(e) WHERE coalesce(r.groupId, '') = g AND o <> e
    CREATE (o)-[r2:RELATED]->(c) SET r2 = properties(r)
    DELETE r
  }
  CALL (e, c) {
    MERGE (s:CorpusStat {tenant: e.tenant, kind: 'entity'}) ON CREATE SET s.docs = 0, s.tokens = 0
    SET s.docs = s.docs + 1, s.tokens = s.tokens + coalesce(c.termCount, 0)
  }
  CALL (e, c) {
    UNWIND coalesce(c.terms, []) AS term
    MERGE (s:TermStat {tenant: e.tenant, kind: 'entity', term: term}) ON CREATE SET s.df = 0
    SET s.df = s.df + 1
  }
  RETURN count(*) AS copies
 }
 REMOVE e.otherGroups
} IN TRANSACTIONS OF 100 ROWS;
// A relation moved above to the copy of its group at one end may still point, at the other,
// to an entity split after it was moved: each end is taken to its group's entity of that key.
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE ($tenant IS NULL OR r.tenant = $tenant)
  AND (coalesce(r.groupId, '') <> a.groupKey OR coalesce(r.groupId, '') <> b.groupKey)
CALL (a, r, b) {
  MATCH (a2:Entity {tenant: a.tenant, groupKey: coalesce(r.groupId, ''), key: a.key})
  MATCH (b2:Entity {tenant: b.tenant, groupKey: coalesce(r.groupId, ''), key: b.key})
  CREATE (a2)-[r2:RELATED]->(b2) SET r2 = properties(r)
  DELETE r
} IN TRANSACTIONS OF 1000 ROWS;
MATCH (f:Fact)
WHERE ($tenant IS NULL OR f.tenant = $tenant)
  AND f.groupId IS NOT NULL AND f.subjectKey IS NOT NULL AND NOT f.subjectKey CONTAINS '@'
CALL (f) {
  SET f.subjectKey = f.subjectKey + '@' + f.groupId
} IN TRANSACTIONS OF 1000 ROWS;
DROP INDEX entity_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding WITH [n.tenant, n.groupId, n.groupKey] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
