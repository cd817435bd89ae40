"""Per-request batch loaders for nested lists their parent did not bring: an entity's facts
under relatedTo, the turns and facts of a search hit's or a scene's episode. One query per
request and field, however many parents ask (strawberry's DataLoader gathers the keys)."""
from __future__ import annotations

from datetime import datetime

from strawberry.dataloader import DataLoader

from app.recollection.lookup import cells_parts, entities_facts
from app.store.graph import TenantGraph


class Loaders:
    def __init__(self, graph: TenantGraph):
        self.graph = graph
        # Keyed by (entity id, moment): relatedTo as of a past moment lists the facts true then.
        self.entity_facts = DataLoader(load_fn=self._entity_facts)
        self.cell_parts = DataLoader(load_fn=lambda ids: cells_parts(graph, list(ids)))

    async def _entity_facts(self, keys: list[tuple[str, datetime]]) -> list[list[dict]]:
        found: dict[tuple[str, datetime], list[dict]] = {}
        for at in dict.fromkeys(at for _, at in keys):  # one moment in a request, as a rule
            ids = [i for i, a in keys if a == at]
            found.update(zip(((i, at) for i in ids), await entities_facts(self.graph, ids, at)))
        return [found[k] for k in keys]
