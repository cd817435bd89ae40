# The two commands of the README: `make run` and `make test`. Everything else they need is
# installed on the way (a virtualenv in .venv, Neo4j from Maven Central into .engram/).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: run test venv neo4j neo4j-stop schema eval bench clean

$(STAMP): pyproject.toml
	@bash scripts/bootstrap.sh "$(PY)" "$(VENV)"
	@touch $(STAMP)

venv: $(STAMP)

neo4j: venv
	$(BIN)/engram neo4j start

neo4j-stop: venv
	$(BIN)/engram neo4j stop

run: venv
	$(BIN)/engram serve

test: venv
	$(BIN)/engram neo4j install
	$(BIN)/python -m pytest $(PYTEST_ARGS)

schema: venv
	$(BIN)/engram schema export

eval: venv
	$(BIN)/engram eval locomo --data ../shared/data/locomo-dev.json --out eval-out

clean:
	-$(BIN)/engram neo4j stop
	rm -rf $(VENV) .engram
