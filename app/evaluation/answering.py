"""The optional answering mode of `engram eval locomo --answer`: an LLM answers each question
from the retrieved context, and an LLM judge marks the answer CORRECT or WRONG against the gold
answer (token F1 is reported beside it). Needs ENGRAM_LLM_BASE_URL / ENGRAM_LLM_MODEL."""
from __future__ import annotations

from openai import AsyncOpenAI

ANSWER_PROMPT = """Answer the question using only the memories below. Memories carry dates; answer
dates as dates. Reply with a short answer (a few words), or "unknown".

Memories:
{context}

Question: {question}
Answer:"""

JUDGE_PROMPT = """You grade an answer against the gold answer. Be generous with wording and
format (dates in another format, synonyms) but strict about facts.
Question: {question}
Gold answer: {gold}
Answer to grade: {answer}
Reply with exactly one word: CORRECT or WRONG."""


class Answerer:
    def __init__(self, settings):
        if not (settings.llm_base_url and settings.llm_model):
            raise ValueError("--answer needs an LLM: set ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL")
        self.model = settings.llm_model
        self.client = AsyncOpenAI(base_url=settings.llm_base_url, api_key=settings.llm_api_key or "none",
                                  timeout=settings.llm_timeout_s, max_retries=3)

    async def _ask(self, prompt: str, max_tokens: int) -> str:
        resp = await self.client.chat.completions.create(
            model=self.model, temperature=0, max_tokens=max_tokens,
            messages=[{"role": "user", "content": prompt}])
        return (resp.choices[0].message.content or "").strip()

    async def answer(self, question: str, context: str) -> str:
        return await self._ask(ANSWER_PROMPT.format(context=context[:16000], question=question), 64)

    async def judge(self, question: str, gold: str, answer: str) -> bool:
        verdict = await self._ask(JUDGE_PROMPT.format(question=question, gold=gold, answer=answer), 4)
        return verdict.upper().startswith("CORRECT")
