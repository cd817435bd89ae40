"""The write path: messages -> turns -> MemCells -> facts, entities, foresight -> the graph."""
