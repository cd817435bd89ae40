// Native vector indexes, cosine, dimension from the embedding model ($dimensions is supplied
// by the migration runner). `WITH [n.tenant]` declares tenant as a filterable property so that
// `SEARCH ... WHERE n.tenant = $tenant` filters inside the index (Cypher 25, Neo4j 2026.x).
CYPHER 25 CREATE VECTOR INDEX memcell_embedding IF NOT EXISTS FOR (n:MemCell) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX scene_embedding IF NOT EXISTS FOR (n:MemScene) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX foresight_embedding IF NOT EXISTS FOR (n:Foresight) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CYPHER 25 CREATE VECTOR INDEX turn_embedding IF NOT EXISTS FOR (n:Turn) ON n.embedding WITH [n.tenant] OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
