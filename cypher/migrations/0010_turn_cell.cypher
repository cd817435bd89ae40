// Forgetting episodes by id finds their turns by the cell id each turn carries (t.memCellId),
// so a forget interrupted after the episodes went is finished by running it again
// (app/lifecycle/forget.py); without this index that lookup scans the tenant's turns.
CREATE INDEX turn_cell IF NOT EXISTS FOR (n:Turn) ON (n.tenant, n.memCellId);
