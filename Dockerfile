# The Engram API. Neo4j runs as its own service (see docker-compose.yml).
FROM python:3.11-slim
WORKDIR /srv/engram
ENV PIP_NO_CACHE_DIR=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md ./
COPY app ./app
COPY cypher ./cypher
COPY graphql ./graphql
# Editable, so the code finds cypher/migrations and cypher/explore beside it (a wheel holds app/ only).
RUN pip install -e .
# Export the embedding model for ONNX Runtime into the image, so a container does not do it at start.
RUN python -c "from app.settings import Settings as S; from app.embeddings import get_embedder as g; \
s = S(); g(s.embedding_model, s.embedding_batch_size, s.embedding_runtime, s.home / 'models')"
ENV ENGRAM_HOST=0.0.0.0 ENGRAM_PORT=8000
EXPOSE 8000
CMD ["engram", "serve"]
