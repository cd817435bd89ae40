# The Engram API. Neo4j runs as its own service (see docker-compose.yml).
FROM python:3.11-slim
WORKDIR /srv/engram
ENV PIP_NO_CACHE_DIR=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md ./
COPY app ./app
COPY cypher ./cypher
COPY graphql ./graphql
RUN pip install .
ENV ENGRAM_HOST=0.0.0.0 ENGRAM_PORT=8000
EXPOSE 8000
CMD ["engram", "serve"]
