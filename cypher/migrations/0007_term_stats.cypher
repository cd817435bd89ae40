// Keyword statistics per tenant (app/store/term_stats.py): one node per (tenant, kind, word)
// and one per (tenant, kind). The constraints make MERGE safe under concurrent writers and
// serve the lookups of the keyword channel.
CREATE CONSTRAINT term_stat_key IF NOT EXISTS FOR (n:TermStat) REQUIRE (n.tenant, n.kind, n.term) IS UNIQUE;
CREATE CONSTRAINT corpus_stat_key IF NOT EXISTS FOR (n:CorpusStat) REQUIRE (n.tenant, n.kind) IS UNIQUE;
