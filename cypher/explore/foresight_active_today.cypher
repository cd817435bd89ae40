// Foresight (plans, expectations) whose validity window covers now, i.e. datetime(): active,
// validFrom <= now (or none) and validTo >= now (or open-ended), not forgotten (retired by gc
// once validTo has passed, still shown for an `at` inside its window), with the MemCell that
// predicted it and the turns it rests on. Soonest-ending first. Looked at as of a past
// moment, one a later turn said no longer holds ("not vegan any more", a trip called off)
// shows when and who said so (endedAt, endedBy). Each is drawn with whom it concerns (the
// entity its text begins with, by CONCERNS).
// In Neo4j Browser set:
//   :param tenant => 'default'
//   :param at => null
// `at` null means now. To look at another moment (e.g. old sample data) set it instead:
//   :param at => datetime('2023-06-01T00:00:00Z')
WITH coalesce($at, datetime()) AS at
MATCH (n:Foresight {tenant: $tenant})
WHERE n.status IN ['active', 'retired'] AND coalesce(n.forgotten, false) = false
  AND (n.validFrom IS NULL OR n.validFrom <= at)
  AND (n.validTo IS NULL OR n.validTo >= at)
OPTIONAL MATCH (cell:MemCell {tenant: $tenant})-[predicts:PREDICTS]->(n)
CALL (n) {
  OPTIONAL MATCH (n)-[ev:EVIDENCED_BY]->(t:Turn {tenant: $tenant})
  WITH ev, t ORDER BY t.seq
  RETURN collect(ev) AS evidence, collect(t) AS turns,
         collect(t.speaker + ': ' + t.content) AS said
}
OPTIONAL MATCH (n)-[:ENDED_BY]->(endTurn:Turn {tenant: $tenant})
OPTIONAL MATCH (n)-[about:CONCERNS]->(who:Entity {tenant: $tenant})
RETURN n.kind AS kind, who.name AS concerns, n.text AS text, n.validFrom AS validFrom, n.validTo AS validTo,
       cell.title AS cellTitle, said, n.endedAt AS endedAt, endTurn.speaker + ': ' + endTurn.content AS endedBy,
       n, predicts, cell, evidence, turns, about, who
ORDER BY n.validTo IS NULL, n.validTo, n.id
LIMIT 100;
