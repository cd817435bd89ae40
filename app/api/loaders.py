"""Per-request batch loaders for nested lists their parent did not bring: an entity's facts
under relatedTo, the turns and facts of a search hit's or a scene's episode. One query per
request and field, however many parents ask (strawberry's DataLoader gathers the keys)."""
from __future__ import annotations

from strawberry.dataloader import DataLoader

from app.recollection.lookup import cells_parts, entities_facts
from app.store.graph import TenantGraph


class Loaders:
    def __init__(self, graph: TenantGraph):
        self.entity_facts = DataLoader(load_fn=lambda ids: entities_facts(graph, list(ids)))
        self.cell_parts = DataLoader(load_fn=lambda ids: cells_parts(graph, list(ids)))
