// Uniqueness of ids. Ids are unique per label across tenants: the service mints MemCell, Fact,
// Entity, Scene and Foresight ids itself (uuid). Conversation ids are the client's, unique per
// tenant; Turn ids are the client's message ids, unique per conversation, so two tenants or two
// conversations may use the same message ids.
CREATE CONSTRAINT conversation_key IF NOT EXISTS FOR (n:Conversation) REQUIRE (n.tenant, n.id) IS UNIQUE;
CREATE CONSTRAINT turn_key IF NOT EXISTS FOR (n:Turn) REQUIRE (n.tenant, n.conversationId, n.id) IS UNIQUE;
CREATE CONSTRAINT memcell_id IF NOT EXISTS FOR (n:MemCell) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT scene_id IF NOT EXISTS FOR (n:MemScene) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT foresight_id IF NOT EXISTS FOR (n:Foresight) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT apikey_hash IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.hash IS UNIQUE;
