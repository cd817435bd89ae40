// One WriteLock per tenant. Writers of a tenant's cells, an import starting, and the first
// turns of a new conversation lock it (MERGE), and only a uniqueness constraint makes
// concurrent MERGEs of a missing node create one node, and so one lock. Duplicates an older
// database may hold (from such a race) go first.
MATCH (l:WriteLock) WITH l.tenant AS tenant, collect(l) AS locks WHERE size(locks) > 1
UNWIND tail(locks) AS extra DETACH DELETE extra;
CREATE CONSTRAINT write_lock_tenant IF NOT EXISTS FOR (n:WriteLock) REQUIRE n.tenant IS UNIQUE;
