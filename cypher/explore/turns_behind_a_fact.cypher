// The evidence behind one fact: the turns it was extracted from (EVIDENCED_BY), each with
// the turn before and after it (NEXT) so the exchange reads in context.
// Fact ids look like f_...: take one from entity_timeline.cypher or from the API.
// In Neo4j Browser set:
//   :param tenant => 'default'
//   :param factId => 'f_...'
MATCH (f:Fact {tenant: $tenant, id: $factId})-[ev:EVIDENCED_BY]->(t:Turn {tenant: $tenant})
OPTIONAL MATCH (prev:Turn {tenant: $tenant})-[toT:NEXT]->(t)
OPTIONAL MATCH (t)-[fromT:NEXT]->(next:Turn {tenant: $tenant})
RETURN t.seq AS seq, t.at AS at, prev.speaker + ': ' + prev.content AS before,
       t.speaker + ': ' + t.content AS evidence, next.speaker + ': ' + next.content AS after,
       f, ev, t, prev, toT, next, fromT
ORDER BY t.conversationId, t.seq;
