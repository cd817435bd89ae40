"""Retrieval channels: each finds candidates its own way; fusion combines their rankings."""
