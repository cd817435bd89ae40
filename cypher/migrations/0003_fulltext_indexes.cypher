// BM25 (Lucene) indexes. `tenant` is indexed too so that callers can add it to the query;
// the data-access layer filters by tenant on every hit regardless.
CREATE FULLTEXT INDEX turn_text IF NOT EXISTS FOR (n:Turn) ON EACH [n.content];
CREATE FULLTEXT INDEX memcell_text IF NOT EXISTS FOR (n:MemCell) ON EACH [n.title, n.summary, n.keywordText];
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text];
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliasText];
CREATE FULLTEXT INDEX foresight_text IF NOT EXISTS FOR (n:Foresight) ON EACH [n.text, n.trigger];
