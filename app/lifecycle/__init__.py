"""Lifecycle: deletion, forgetting, consolidation, backup."""
