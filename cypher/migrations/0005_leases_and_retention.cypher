// Leases for the server's periodic tasks: one (:Lease {name, holder, expiresAt}) per task, so
// several API replicas on one Neo4j run each task one at a time. Leases are service state, not
// tenant data (no `tenant`); app/store/lease.py is the only code that touches them.
CREATE CONSTRAINT lease_name IF NOT EXISTS FOR (n:Lease) REQUIRE n.name IS UNIQUE;
// Forgetting flags the RELATED edges of forgotten facts, and purging deletes them, by fact id:
// without this index each lookup scans every RELATED edge of the tenant.
CREATE INDEX related_fact IF NOT EXISTS FOR ()-[r:RELATED]-() ON (r.factId);
// gc finds forgotten cells past their grace period by tenant, status and forgottenAt.
CREATE INDEX memcell_forgotten IF NOT EXISTS FOR (n:MemCell) ON (n.tenant, n.status, n.forgottenAt);
