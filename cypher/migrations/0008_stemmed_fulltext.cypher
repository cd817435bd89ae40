// The fulltext indexes again, with Lucene's english analyzer (possessives, stop words, Porter's
// stemmer): "painted" finds "painting". They only propose candidates; keyword scores come from
// the tenant's own statistics, stemmed the same way (app/store/term_stats.py). Dropped first:
// an index's analyzer cannot change. A run interrupted here is redone whole, as every migration.
// The `tenant` field is analysed too: app/store/keys.py refuses a tenant name that would be the
// same Lucene word as another's, or a stop word (which Lucene drops).
DROP INDEX turn_text IF EXISTS;
DROP INDEX memcell_text IF EXISTS;
DROP INDEX fact_text IF EXISTS;
DROP INDEX entity_text IF EXISTS;
DROP INDEX foresight_text IF EXISTS;
CREATE FULLTEXT INDEX turn_text IF NOT EXISTS FOR (n:Turn) ON EACH [n.content, n.speaker, n.tenant] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX memcell_text IF NOT EXISTS FOR (n:MemCell) ON EACH [n.title, n.summary, n.keywordText, n.tenant] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text, n.tenant] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliasText, n.tenant] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX foresight_text IF NOT EXISTS FOR (n:Foresight) ON EACH [n.text, n.trigger, n.tenant] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
