// The vector indexes again, searched on their float vectors (`vector.quantization.type` NONE).
// Neo4j's default (BINARY: one bit a dimension, 3x as many candidates searched, then rescored
// from the float vectors) cost more CPU, not less, at this size and dimension, and missed
// neighbours: measured on copies of 109,500 facts' vectors among 20 tenants (k = 60, 384
// dimensions, query vectors of real questions), Neo4j CPU per filtered search 2.78 -> 1.63 ms
// for a 100k-node tenant and 1.18 -> 0.57 ms for a 500-node one, whose recall against an exact
// scan went 0.926 -> 1.000. A float vector takes 1.5 KB of page cache instead of 48 bytes for
// the graph's walk; the vectors were read for rescoring anyway. Dropped first: an index's
// configuration cannot change. A run interrupted here is redone whole, as every migration.
DROP INDEX memcell_embedding IF EXISTS;
DROP INDEX fact_embedding IF EXISTS;
DROP INDEX entity_embedding IF EXISTS;
DROP INDEX scene_embedding IF EXISTS;
DROP INDEX foresight_embedding IF EXISTS;
DROP INDEX turn_embedding IF EXISTS;
CYPHER 25 CREATE VECTOR INDEX memcell_embedding IF NOT EXISTS FOR (n:MemCell) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX scene_embedding IF NOT EXISTS FOR (n:MemScene) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX foresight_embedding IF NOT EXISTS FOR (n:Foresight) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
CYPHER 25 CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.type`: 'NONE'}};
