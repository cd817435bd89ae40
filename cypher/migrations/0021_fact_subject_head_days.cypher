// The days of things said of no entity ("the manure delivery | date is") are found by their
// short names too (app/construction/short_names.py): written before, they get `subjectHead`
// here, once, for every tenant ($tenant null); backup_import runs it again for the tenant it
// imports, as it does 0020's.
MATCH (f:Fact)
WHERE ($tenant IS NULL OR f.tenant = $tenant) AND f.subjectHead IS NULL AND f.predicate = 'date is'
  AND f.singleValued AND coalesce(f.ends, false) = false
  AND NOT EXISTS { (f)-[:ABOUT {role: 'subject'}]->(:Entity) }
CALL (f) {
  WITH f, [w IN split(split(f.subjectKey, '@')[0], ' ') WHERE w <> ''] AS words
  WHERE size(words) > 0
  SET f.subjectHead = words[-1] + CASE WHEN f.groupId IS NULL THEN '' ELSE '@' + f.groupId END
} IN TRANSACTIONS OF 1000 ROWS;
