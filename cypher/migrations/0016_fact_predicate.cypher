// A value said of no one ("The boiler is working again now") is the one owner's of its kind in
// its group (app/construction/value_owner.py): found by the attribute's predicate
// ("boiler is") in the writer's transaction, which without this index scanned the tenant's facts.
CREATE INDEX fact_predicate IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.predicate);
