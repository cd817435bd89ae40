// What a value is held by, found by its object (app/construction/replacements.py): "his replacement
// is Priya Nair" gives Priya the values whose object is Tom Ashby, in the writer's transaction,
// which without this index scanned the group's or the tenant's facts.
CREATE INDEX fact_object IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.objectKey);
