"""Text that is not Unicode is refused before any resolver sees it.

JSON's `\\ud800` escape gives Python a lone surrogate: a str that cannot be encoded as UTF-8.
The tokenizer, the Neo4j driver and Lucene all fail on it, each in its own way, which reached
the client as INTERNAL. Checked once here, for every string of the request's variables, it is
a BAD_USER_INPUT naming where it was (the document's own string literals are refused by
graphql-core's parser already).
"""
from __future__ import annotations

from graphql import ExecutionResult
from strawberry.extensions import SchemaExtension

from app.api.errors import bad_input


def _unencodable(value, where: str) -> str | None:
    """Where the first string that UTF-8 cannot encode sits in `value`, or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where
        return None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        # Keys are the client's too (fields the schema may not have: coercion comes later).
        name = str(key).encode("utf-8", "backslashreplace").decode("utf-8")
        if name != str(key):
            return f"{where}.{name}"
        found = _unencodable(item, f"{where}.{name}")
        if found:
            return found
    return None


class RefuseUnencodableText(SchemaExtension):
    def on_execute(self):
        ec = self.execution_context
        where = _unencodable(ec.variables or {}, "$")
        if where is not None:
            ec.result = ExecutionResult(data=None, errors=[bad_input(
                f"{where}: text is not valid Unicode (a lone surrogate such as \\ud800)")])
        yield
