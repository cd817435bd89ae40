"""A conversation with topics for the scene tests: a job and its project, a garden, the project
again, and months later a new job that replaces the first."""
from datetime import datetime, timezone

from tests.conversation import _msgs

ATHENA_1 = _msgs(datetime(2024, 1, 8, 9, 0, tzinfo=timezone.utc), [
    ("a1", "Maya", "I work at Northwind Bank, I lead the Athena project there."),
    ("a2", "Sam", "What is Athena about?"),
    ("a3", "Maya", "Athena migrates the bank's ledger from the old mainframe to Postgres."),
    ("a4", "Sam", "Sounds like a lot of SQL and database schemas."),
    ("a5", "Maya", "Yes, the ledger tables and the nightly batch jobs are the hard part of the migration."),
])

GARDEN = _msgs(datetime(2024, 1, 20, 17, 0, tzinfo=timezone.utc), [
    ("g1", "Maya", "Our tomatoes on the balcony are finally turning red."),
    ("g2", "Sam", "Nice! Are you still growing basil in the window boxes?"),
    ("g3", "Maya", "The basil is huge, and I planted mint and rosemary in new clay pots."),
    ("g4", "Sam", "Do you water the plants every day?"),
    ("g5", "Maya", "Every evening, and I feed the seedlings with compost from the garden."),
])

ATHENA_2 = _msgs(datetime(2024, 2, 2, 9, 0, tzinfo=timezone.utc), [
    ("b1", "Maya", "The Athena database migration reached the cutover weekend."),
    ("b2", "Sam", "Did the ledger move to Postgres without problems?"),
    ("b3", "Maya", "Mostly: replication from the mainframe lagged, so the batch jobs ran late."),
    ("b4", "Sam", "Will the bank keep the old tables for the audit?"),
    ("b5", "Maya", "The old ledger schema stays read-only until the SQL reconciliation is done."),
])

NEW_JOB = _msgs(datetime(2024, 9, 16, 9, 0, tzinfo=timezone.utc), [
    ("n1", "Maya", "Big change: I work at Brightleaf now, I left the bank in August."),
    ("n2", "Sam", "Congrats! What do you build there?"),
    ("n3", "Maya", "A reading app for children, with picture books and friendly illustrations."),
    ("n4", "Sam", "Do kids read the stories aloud in it?"),
    ("n5", "Maya", "They can record their voice, and teachers see which stories each class enjoys."),
])
