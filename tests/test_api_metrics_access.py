"""Who may read /metrics: its numbers are every tenant's together, so no API key opens it. The
test server listens on loopback; other client addresses are checked on the decision itself."""
import httpx
import pytest

from app.api.main import metrics_refusal
from tests.api_server import running_api
from tests.test_api import _new_key


@pytest.mark.parametrize("client, header, token, served", [
    ("127.0.0.1", None, "", True), ("::1", None, "", True), ("::ffff:127.0.0.1", None, "", True),
    ("10.0.0.5", None, "", False), ("192.168.1.20", "Bearer anything", "", False), (None, None, "", False),
    # With a token, the token is needed from anyone, this machine too.
    ("127.0.0.1", None, "s3cret", False), ("10.0.0.5", "Bearer s3cret", "s3cret", True),
    ("10.0.0.5", "bearer  s3cret ", "s3cret", True), ("10.0.0.5", "Bearer s3cre", "s3cret", False),
    ("10.0.0.5", "Basic s3cret", "s3cret", False),
])
def test_who_may_read_metrics(client, header, token, served):
    assert (metrics_refusal(client, header, token) is None) == served


def test_with_a_metrics_token_metrics_need_it_and_an_api_key_is_not_enough(api):
    key = _new_key(api.settings, "api_metrics_probe")
    with running_api(api.settings, {"ENGRAM_METRICS_TOKEN": "m-token-1"}) as server:
        for headers in ({}, {"Authorization": f"Bearer {key}"}, {"Authorization": "Bearer m-token-2"}):
            r = httpx.get(f"{server.url}/metrics", headers=headers, timeout=10)
            assert r.status_code == 401 and "engram_" not in r.text, r.text
        r = httpx.get(f"{server.url}/metrics", headers={"Authorization": "Bearer m-token-1"}, timeout=10)
        assert r.status_code == 200 and "engram_pending_turns" in r.text
        assert httpx.get(f"{server.url}/health", timeout=10).status_code == 200
