// A relation carries its fact's group (relatedTo(groupId) follows one group's relations only,
// as search's groupId reads one group's facts). Relations written before get it here, once.
MATCH ()-[r:RELATED]->()
WHERE r.groupId IS NULL
CALL (r) {
  MATCH (f:Fact {tenant: r.tenant, id: r.factId})
  WHERE f.groupId IS NOT NULL
  SET r.groupId = f.groupId
} IN TRANSACTIONS OF 1000 ROWS;
