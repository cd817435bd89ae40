"""The export file: JSON lines, one header then one line per node and per relationship.

    {"format": "engram-export", "version": 1, "tenant": ..., "exportId": ..., "exportedAt": ...,
     "model": {"name": ..., "dimensions": ...}, "embeddings": true|false,
     "vectorProperties": {"Turn": ["embedding"], ...},
     "counts": {"nodes": {"Turn": 9, ...}, "relationships": {"HAS_TURN": 9, ...}}}
    {"kind": "node", "key": 0, "labels": ["Turn"], "props": {...}}
    {"kind": "rel", "type": "NEXT", "start": 0, "end": 1, "props": {...}}

Every node line comes before every relationship line, so an importer can create nodes as it
reads them and edges after. `key` is local to the file (a counter), never a database id. Node
counts are keyed by the node's labels joined with ':' (sorted).

Property values are JSON where JSON can carry them exactly (strings, booleans, integers, finite
floats, lists of these: vectors included, Python's float repr round-trips every double). Anything
else is an object with a type tag "$t" (Neo4j properties cannot hold maps, so an object is
always a tag): datetimes with their zone, dates, times, durations, points, non-finite floats,
bytes, and "omitted" for a vector left out by `export --no-embeddings`.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import math
import re
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytz
from neo4j.spatial import CartesianPoint, Point, WGS84Point
from neo4j.time import Date, DateTime, Duration, Time

FORMAT = "engram-export"
VERSION = 1

# Labels carrying `tenant` that are not memory: locks and runs that live for one operation, and
# API keys (credentials belong to the deployment, and importing a file must never create one).
# Keyword statistics are derived from the nodes' `terms` (read label by label, an export is no
# single snapshot they would match): an import counts them anew. Nodes carrying one of these
# are left out of an export even when they carry a memory label too.
EXCLUDED_LABELS = frozenset({"WriteLock", "Lease", "ApiKey", "ImportRun", "TenantPurge", "TermStat",
                             "CorpusStat"})

# Labels and relationship types cannot be query parameters, so the ones we splice into Cypher
# text (read from the database, or from an untrusted file) must be plain identifiers: no
# backticks, spaces or punctuation that could end the pattern and start another clause.
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,99}$")

# Stands in for a vector left out of the file; the importer recomputes it.
OMITTED = {"$t": "omitted"}


class BackupError(ValueError):
    """A clear, user-facing reason an export or import cannot go on; nothing was changed."""


def identifier(name: Any, what: str) -> str:
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        raise BackupError(f"{what} {name!r} is not a plain identifier (letters, digits, _)")
    return name


# What a tenant's memory is made of, and all an import may create: an allowlist, because the
# database also holds service-wide nodes read without a tenant (applied migrations), which a
# crafted file must never write (a forged Migration stops every start-up for every tenant).
# A memory label added later and not listed here fails the round-trip test (tests/test_backup.py).
MEMORY_LABELS = frozenset({"Conversation", "Turn", "MemCell", "Fact", "Entity", "Foresight",
                           "MemScene", "SceneCentre"})


def is_memory_label(label: str) -> bool:
    return label in MEMORY_LABELS


def label_key(labels: list[str]) -> str:
    return ":".join(sorted(labels))


def remap_id(target_tenant: str, old: str) -> str:
    """The id a service-minted id gets in a copy under another tenant. Ids are unique across
    tenants (cypher/migrations/0001), so a copy needs new ones; deriving them from (tenant, old id)
    makes a re-run of the same import mint the same ids. The shape is kept: "mc_<20 hex>" stays
    "mc_<20 hex>" (app/domain/models.py new_id), a uuid stays a uuid."""
    digest = hashlib.sha256(f"{target_tenant}\x00{old}".encode()).digest()
    try:
        uuid.UUID(old)
        return str(uuid.UUID(bytes=digest[:16], version=4))
    except ValueError:
        pass
    prefix = old.split("_", 1)[0] if "_" in old else "id"
    return f"{prefix}_{digest.hex()[:20]}"


# --- values ---------------------------------------------------------------------------------

def _zone_name(tz) -> str | None:
    # Named zones (Europe/Berlin) must come back named, or DST arithmetic changes; fixed offsets
    # are already in the ISO text.
    name = getattr(tz, "zone", None) or getattr(tz, "key", None)
    return name if isinstance(name, str) else None


def encode_value(v: Any) -> Any:
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isfinite(v):
            return v
        return {"$t": "float", "v": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}
    if isinstance(v, list):
        return [encode_value(x) for x in v]
    if isinstance(v, DateTime):
        if v.tzinfo is None:
            return {"$t": "localdatetime", "v": v.iso_format()}
        out = {"$t": "datetime", "v": v.iso_format()}
        zone = _zone_name(v.tzinfo)
        if zone:
            out["zone"] = zone
        return out
    if isinstance(v, Date):
        return {"$t": "date", "v": v.iso_format()}
    if isinstance(v, Time):
        return {"$t": "time" if v.tzinfo is not None else "localtime", "v": v.iso_format()}
    if isinstance(v, Duration):
        return {"$t": "duration", "months": v.months, "days": v.days, "seconds": v.seconds,
                "nanoseconds": v.nanoseconds}
    if isinstance(v, Point):
        return {"$t": "point", "srid": v.srid, "coords": [float(c) for c in v]}
    if isinstance(v, (bytes, bytearray)):
        return {"$t": "bytes", "v": base64.b64encode(bytes(v)).decode()}
    raise BackupError(f"a property value of type {type(v).__name__} cannot be exported")


_POINTS = {7203: CartesianPoint, 9157: CartesianPoint, 4326: WGS84Point, 4979: WGS84Point}


def _decode_tag(d: dict) -> Any:
    t = d.get("$t")
    try:
        if t == "datetime":
            dt = DateTime.from_iso_format(d["v"])
            if d.get("zone"):
                dt = dt.astimezone(pytz.timezone(d["zone"]))
            return dt
        if t == "localdatetime":
            return DateTime.from_iso_format(d["v"])
        if t == "date":
            return Date.from_iso_format(d["v"])
        if t in ("time", "localtime"):
            return Time.from_iso_format(d["v"])
        if t == "duration":
            return Duration(months=d["months"], days=d["days"], seconds=d["seconds"],
                            nanoseconds=d["nanoseconds"])
        if t == "point":
            cls = _POINTS[d["srid"]]
            return cls(d["coords"])
        if t == "float":
            return float(d["v"])
        if t == "bytes":
            return base64.b64decode(d["v"], validate=True)
    except (KeyError, TypeError, ValueError) as e:
        raise BackupError(f"bad {t!r} value {d!r}: {e}") from None
    raise BackupError(f"unknown value tag {d!r}")


def decode_value(v: Any) -> Any:
    if isinstance(v, dict):
        return _decode_tag(v)
    if isinstance(v, list):
        return [decode_value(x) for x in v]
    if v is None or isinstance(v, (bool, str, int, float)):
        return v
    raise BackupError(f"bad property value {v!r}")


def encode_props(props: dict, omit: frozenset[str] = frozenset()) -> dict:
    return {k: (OMITTED if k in omit and props[k] is not None else encode_value(v))
            for k, v in sorted(props.items())}


def dumps(obj: dict) -> str:
    # allow_nan=False: a NaN that slipped past encode_value would be invalid JSON.
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# --- files ----------------------------------------------------------------------------------

def open_text(path: Path, mode: str, gz: bool | None = None):
    """Plain or gzip text (by the .gz suffix unless `gz` says), UTF-8, '\\n' lines."""
    if gz is None:
        gz = path.suffix == ".gz"
    if gz:
        return io.TextIOWrapper(gzip.open(path, mode + "b"), encoding="utf-8", newline="\n")
    return open(path, mode, encoding="utf-8", newline="\n")


def read_lines(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, object) for every line; a clear error for anything that is not JSON."""
    try:
        with open_text(path, "r") as f:
            for no, line in enumerate(f, start=1):
                if not line.endswith("\n"):
                    raise BackupError(f"{path}: line {no} is cut off (truncated file?)")
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as e:
                    raise BackupError(f"{path}: line {no} is not valid JSON ({e.msg}); "
                                      "truncated or not an Engram export?") from None
                if not isinstance(obj, dict):
                    raise BackupError(f"{path}: line {no} is not a JSON object")
                yield no, obj
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise BackupError(f"{path}: cannot read it ({e})") from None


def check_header(obj: dict, path: Path) -> dict:
    if obj.get("format") != FORMAT:
        raise BackupError(f"{path} is not an Engram export (its first line has no "
                          f"\"format\": \"{FORMAT}\")")
    if obj.get("version") != VERSION:
        raise BackupError(f"{path} is an Engram export of version {obj.get('version')!r}; "
                          f"this Engram reads version {VERSION}")
    counts = obj.get("counts")
    if (not isinstance(obj.get("tenant"), str) or not isinstance(obj.get("exportId"), str)
            or not isinstance(counts, dict) or not isinstance(counts.get("nodes"), dict)
            or not isinstance(counts.get("relationships"), dict)
            or not isinstance(obj.get("model"), dict)
            or not isinstance(obj.get("vectorProperties"), dict)):
        raise BackupError(f"{path}: the header lacks tenant, exportId, model, vectorProperties "
                          "or counts")
    return obj
