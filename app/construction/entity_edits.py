"""What correcting entity resolution by hand shares (entity_split.py, entity_merge.py): finding
an entity as the API names it, refusals and moving relations (the timelines whose facts moved
are planned again by timelines.py)."""
from __future__ import annotations

from app.construction.entity_resolution import NAMED_ENTITY, normalize_key, timeline_key
from app.store.graph import TenantTx
from app.store.locking import TENANT_WRITE_LOCK

MAX_NAME = 256

NAMED = NAMED_ENTITY + """
RETURN e {.id, .key, .name, .type, .aliases, .aliasKeys, .merges, .splitKeys, .groupId, .groupKey} AS entity
"""

# Relations move with what moved: the new end where the old entity was; those of the facts
# moved ($factIds), or all of them (null). A relation of an entity to itself, which the graph
# never holds (one between the two), is dropped.
MOVE_RELATED = """
MATCH (x:Entity {tenant: $tenant, id: $from}), (e:Entity {tenant: $tenant, id: $to})
CALL (x, e) {
  MATCH (x)-[r:RELATED]->(o:Entity {tenant: $tenant}) WHERE $factIds IS NULL OR r.factId IN $factIds
  CALL (r, e, o) { WITH r, e, o WHERE o <> e CREATE (e)-[c:RELATED]->(o) SET c = properties(r) }
  DELETE r
}
CALL (x, e) {
  MATCH (o:Entity {tenant: $tenant})-[r:RELATED]->(x) WHERE $factIds IS NULL OR r.factId IN $factIds
  CALL (r, e, o) { WITH r, e, o WHERE o <> e CREATE (o)-[c:RELATED]->(e) SET c = properties(r) }
  DELETE r
}
"""

class EntityEditError(Exception):
    """Nothing was changed. `missing`: an entity named is not the tenant's."""

    def __init__(self, message: str, field: str, missing: bool = False):
        super().__init__(message)
        self.field, self.missing = field, missing


def check_name(value: str, field: str) -> str:
    """The name's key; refused when it is empty, too long, or has nothing to name by."""
    if not value.strip() or len(value) > MAX_NAME:
        raise EntityEditError(f"{field} must be 1-{MAX_NAME} characters", field)
    key = normalize_key(value)
    if not key:
        raise EntityEditError(f"{field} has no letters or digits to name an entity by", field)
    return key


async def locked(tx: TenantTx) -> None:
    """The tenant's write lock: no ingestion writes between what an edit reads and changes."""
    [lock] = await tx.run(TENANT_WRITE_LOCK)
    if lock["purging"]:
        raise EntityEditError("the tenant's memory is being deleted", "entity", missing=True)


async def named(tx: TenantTx, name: str, field: str, group_id: str | None = None) -> dict:
    """The entity `name` names in the group `group_id` (entities are a group's); without one,
    as entity(name) picks among the groups that know the name."""
    rows = await tx.run(NAMED, key=normalize_key(name), groupId=group_id)
    if not rows:
        where = f" in group {group_id!r}" if group_id is not None else ""
        raise EntityEditError(f"no entity is named {name!r}{where}", field, missing=True)
    return rows[0]["entity"]


def timeline(e: dict, key: str | None = None) -> str:
    """The timeline key of what is said of entity `e` (or of the entity of `key` in its group)."""
    return timeline_key(key or e["key"], e["groupId"])
