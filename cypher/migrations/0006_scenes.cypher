// Scenes: the centre (mean cell vector) of each tenant's group, which scene similarity is
// measured against (see app/lifecycle/scene_math.py), and the lookups incremental assignment
// makes for each ingestion: the new cells of one conversation, the scenes of one group.
CREATE CONSTRAINT scene_centre_key IF NOT EXISTS FOR (n:SceneCentre) REQUIRE (n.tenant, n.groupKey) IS UNIQUE;
CREATE INDEX memcell_conversation IF NOT EXISTS FOR (n:MemCell) ON (n.tenant, n.conversationId);
CREATE INDEX scene_group IF NOT EXISTS FOR (n:MemScene) ON (n.tenant, n.groupKey);
CREATE FULLTEXT INDEX scene_text IF NOT EXISTS FOR (n:MemScene) ON EACH [n.topic, n.consensus, n.tenant];
