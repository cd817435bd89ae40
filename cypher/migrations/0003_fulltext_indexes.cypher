// BM25 (Lucene) indexes. `tenant` is indexed too, so a query can require the tenant inside
// Lucene (`+tenant:"..."`) and rank only that tenant's documents; the data-access layer still
// checks n.tenant on every hit.
CREATE FULLTEXT INDEX turn_text IF NOT EXISTS FOR (n:Turn) ON EACH [n.content, n.speaker, n.tenant];
CREATE FULLTEXT INDEX memcell_text IF NOT EXISTS FOR (n:MemCell) ON EACH [n.title, n.summary, n.keywordText, n.tenant];
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text, n.tenant];
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliasText, n.tenant];
CREATE FULLTEXT INDEX foresight_text IF NOT EXISTS FOR (n:Foresight) ON EACH [n.text, n.trigger, n.tenant];
