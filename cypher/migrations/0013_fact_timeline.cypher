// Supersession reads a subject's timeline of one single-valued predicate in the transaction
// that writes each episode (app/construction/supersession.py): by subjectKey, not by the
// subject as written (fact_tenant), and the statements that ended a value by what they end.
// Without these the read scanned every fact of the tenant for each new value.
CREATE INDEX fact_timeline IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.subjectKey, n.predicate);
CREATE INDEX fact_ending IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.subjectKey, n.ends);
