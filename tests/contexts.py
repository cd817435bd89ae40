"""A search's context as SearchService builds it, for tests that call channels or plan the
vector query themselves."""
import asyncio

from app.recollection.channels.base import SearchContext
from app.recollection.request import SearchRequest
from app.recollection.search import SearchService


def search_context(services, graph, req: SearchRequest, vector) -> SearchContext:
    """The context of a search of `req` (its method's channels, their vector parts planned),
    with `vector` (the model's output) as the query's embedding."""
    done = asyncio.get_running_loop().create_future()
    done.set_result(vector)
    return SearchService(services).context(graph, req, done)
