// A thing named shorter than before is the same thing ("the code", said after "the shed lock code
// is 4471": app/construction/short_names.py): the writer finds the group's values of things
// whose name ends in the same word by `Fact.subjectHead` ("code@allotment"), set on the values
// of things said of no entity. Without this index the read scanned the tenant's facts.
CREATE INDEX fact_subject_head IF NOT EXISTS FOR (n:Fact) ON (n.tenant, n.subjectHead);
// Values written before get it here, once, for every tenant ($tenant null); backup_import runs
// it again for the tenant it imports (an export made before holds values without it).
MATCH (f:Fact)
WHERE ($tenant IS NULL OR f.tenant = $tenant) AND f.subjectHead IS NULL AND f.predicate = 'is'
  AND f.singleValued AND coalesce(f.ends, false) = false
  AND NOT EXISTS { (f)-[:ABOUT {role: 'subject'}]->(:Entity) }
CALL (f) {
  WITH f, [w IN split(split(f.subjectKey, '@')[0], ' ') WHERE w <> ''] AS words
  WHERE size(words) > 0
  SET f.subjectHead = words[-1] + CASE WHEN f.groupId IS NULL THEN '' ELSE '@' + f.groupId END
} IN TRANSACTIONS OF 1000 ROWS;
