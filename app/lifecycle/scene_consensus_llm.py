"""A scene's consensus written by an LLM (when Engram runs with the `llm` extractor).

The model gets the scene's topic and its current facts (state facts first, newest first, as the
extractive consensus orders them) and returns a few sentences of what is true now. Facts are
the only input, so the consensus cannot say more than the graph holds. Any failure (endpoint
down, a reply that is not the JSON asked for, an empty text) falls back to the extractive
consensus: a scene is never left without one, and a summary is never worth failing a write for.
"""
from __future__ import annotations

import json
import logging

import openai

from app.settings import Settings

log = logging.getLogger("engram.scenes")

MAX_FACTS = 30
MAX_CHARS = 1200

SYSTEM = (
    "You maintain a memory of conversations. Given a topic and the facts currently true about it, "
    "write its consensus: two to four plain sentences saying what is true now, using only the "
    "facts given, with dates where the facts have them. Reply with JSON: {\"consensus\": \"...\"}."
)


class LLMConsensus:
    def __init__(self, settings: Settings, client: openai.AsyncOpenAI | None = None):
        self.model = settings.llm_model.strip()
        self.client = client or openai.AsyncOpenAI(
            base_url=settings.llm_base_url.strip(), api_key=settings.llm_api_key or "none",
            timeout=settings.llm_timeout_s, max_retries=1)

    async def write(self, topic: str, fact_lines: list[str]) -> str | None:
        if not fact_lines:
            return None
        prompt = json.dumps({"topic": topic, "facts": fact_lines[:MAX_FACTS]}, ensure_ascii=False)
        try:
            reply = await self.client.chat.completions.create(
                model=self.model, temperature=0,
                response_format={"type": "json_object"},
                messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}])
            text = json.loads(reply.choices[0].message.content or "").get("consensus")
        except (openai.OpenAIError, ValueError, AttributeError, IndexError, TypeError) as e:
            log.warning("LLM consensus failed, extractive one kept: %s", e)
            return None
        if not isinstance(text, str) or not text.strip():
            return None
        return text.strip()[:MAX_CHARS]


def make_consensus_writer(settings: Settings) -> LLMConsensus | None:
    if settings.extractor == "llm" and settings.llm_base_url.strip() and settings.llm_model.strip():
        return LLMConsensus(settings)
    return None
