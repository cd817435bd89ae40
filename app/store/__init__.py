"""Data access: the Neo4j driver, migrations, and the tenant-scoped graph every caller goes through."""
