// Range indexes for the lookups every request makes: by tenant, by status, by time.
CREATE INDEX turn_status IF NOT EXISTS FOR (n:Turn) ON (n.tenant, n.status);
CREATE INDEX turn_at IF NOT EXISTS FOR (n:Turn) ON (n.tenant, n.at);
CREATE INDEX memcell_tenant IF NOT EXISTS FOR (n:MemCell) ON (n.tenant, n.status);
CREATE INDEX fact_tenant IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.subject, n.predicate);
CREATE INDEX entity_tenant_key IF NOT EXISTS FOR (n:Entity) ON (n.tenant, n.key);
CREATE INDEX scene_tenant IF NOT EXISTS FOR (n:MemScene) ON (n.tenant, n.status);
CREATE INDEX foresight_tenant IF NOT EXISTS FOR (n:Foresight) ON (n.tenant, n.status);
