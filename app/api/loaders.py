"""Per-request batch loaders for nested lists their parent did not bring: an entity's facts and
foresight under relatedTo, the turns and facts of a search hit's or a scene's episode. One query
per request and field, however many parents ask (strawberry's DataLoader gathers the keys)."""
from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Awaitable, Callable

from strawberry.dataloader import DataLoader

from app.recollection.foresight_lookup import entities_foresights
from app.recollection.lookup import cells_parts, entities_facts
from app.store.graph import TenantGraph

EntityKey = tuple[str, datetime]


class Loaders:
    def __init__(self, graph: TenantGraph):
        self.graph = graph
        # Keyed by (entity id, moment): relatedTo as of a past moment lists the facts (and the
        # foresight) true then.
        self.entity_facts = DataLoader(load_fn=partial(_by_moment, partial(entities_facts, graph)))
        self.entity_foresights = DataLoader(load_fn=partial(_by_moment, partial(entities_foresights, graph)))
        self.cell_parts = DataLoader(load_fn=lambda ids: cells_parts(graph, list(ids)))


async def _by_moment(read: Callable[[list[str], datetime], Awaitable[list[list[dict]]]],
                     keys: list[EntityKey]) -> list[list[dict]]:
    """`read(ids, at)` once for each moment among the keys, its lists in the order of the keys."""
    found: dict[EntityKey, list[dict]] = {}
    for at in dict.fromkeys(at for _, at in keys):  # one moment in a request, as a rule
        ids = [i for i, a in keys if a == at]
        found.update(zip(((i, at) for i in ids), await read(ids, at)))
    return [found[k] for k in keys]
