"""ir_metadata: the YAML block at the top of a TREC run file (Breuer, Keller and Schaer,
"ir_metadata: An Extensible Metadata Schema for IR Experiments", SIGIR 2022).

The block is the run file's first lines, exactly::

    # ir_metadata.start
    # tag: bm25
    # actor:
    #   team: ...
    # ir_metadata.end

Each line between the markers is a line of YAML behind ``#`` and one space (a line that is
``#`` alone is an empty YAML line), as repro_eval's ``MetadataHandler.write_metadata`` writes
it.  Only a block that starts on the very first line (after a byte order mark) is metadata;
``# ir_metadata.start`` anywhere else is an ordinary comment.  The block's lines are comment
lines to the run readers (counted as comments), so every data line is still counted or
rejected, by whichever parser reads the file.

A malformed block is one :class:`~cranfield.errors.InputError` naming the file and the line:
a line inside the block that does not start with ``#`` (or the end of the file) before the
end marker, YAML that does not parse, YAML that is not a mapping, an alias (``*name``: an
alias can make a small block expand without bound when it is written out again), or nesting
deeper than :data:`~cranfield.io.json_depth.MAX_DEPTH` (found from the parser's events, before
any object is built).  The YAML is read with PyYAML's safe loader (the ``yaml`` extra),
imported only for a file that has a block.
"""

from __future__ import annotations

from typing import Any

from cranfield.errors import InputError
from cranfield.io.json_depth import MAX_DEPTH
from cranfield.io.textcheck import BOM

__all__ = [
    "END",
    "START",
    "format_block",
    "has_block",
    "json_value",
    "load_yaml",
    "parse_block",
    "yaml_text",
]

START = b"# ir_metadata.start"
END = b"# ir_metadata.end"


def has_block(data: bytes) -> bool:
    """Whether ``data`` (text, a byte order mark allowed) starts with the start marker line."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data.startswith(START):
        return False
    end = data.find(b"\n")
    return not data[len(START) : end if end >= 0 else len(data)].strip()


def parse_block(data: bytes, source: str) -> dict[str, Any] | None:
    """The metadata of the text ``data`` of a run file (``None`` without a block), or an
    :class:`InputError` naming ``source`` and the line."""
    if not has_block(data):
        return None
    if data.startswith(BOM):
        data = data[len(BOM) :]
    lines: list[str] = []
    pos = data.find(b"\n") + 1
    lineno = 1
    while True:
        if pos == 0 or pos >= len(data):
            raise InputError(
                source,
                f"the ir_metadata block has no end line ({END.decode()!r}) before the end of "
                "the file",
                line=1,
            )
        lineno += 1
        nl = data.find(b"\n", pos)
        raw = data[pos : nl if nl >= 0 else len(data)]
        pos = nl + 1
        line = raw.rstrip()
        if line == END:
            break
        if not line.startswith(b"#"):
            raise InputError(
                source,
                "a line without '#' inside the ir_metadata block that starts on line 1: its "
                f"end line ({END.decode()!r}) is missing, or this line lacks the '# ' of "
                "the block's lines",
                line=lineno,
            )
        body = line[1:]
        lines.append((body[1:] if body.startswith(b" ") else body).decode("utf-8"))
    return _load("\n".join(lines) + "\n", source, first_line=2)


def _load(text: str, source: str, first_line: int) -> dict[str, Any]:
    """The YAML ``text`` (its first line is line ``first_line`` of the file) as a mapping."""
    value = load_yaml(text, source, first_line=first_line, what="ir_metadata: ")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(
            source,
            f"ir_metadata: the block holds a YAML {type(value).__name__}, not a mapping of "
            "keys to values",
            line=first_line,
        )
    return value


def load_yaml(
    text: str, source: str, *, first_line: int = 1, what: str = "", loader: Any = None
) -> Any:
    """The YAML ``text`` read with PyYAML's safe loader (or ``loader``, one derived from it);
    any problem is an :class:`InputError` naming ``source`` and the line (``text``'s first
    line is line ``first_line``), its message starting with ``what``.  Aliases are refused,
    and nesting deeper than :data:`~cranfield.io.json_depth.MAX_DEPTH`, found from the
    parser's events before anything is built."""
    from cranfield.base.optional import require

    yaml = require("yaml", "yaml", "reading YAML")
    if loader is None:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def error(problem: str, mark: Any) -> InputError:
        line = first_line + mark.line if mark is not None else None
        return InputError(source, f"{what}{problem}", line=line)

    try:
        depth = 0
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent):
                raise error(
                    f"YAML alias *{event.anchor} (aliases are not accepted)", event.start_mark
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise error(f"YAML nested more than {MAX_DEPTH} levels deep", event.start_mark)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        return yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise error(f"invalid YAML: {exc.problem or exc.context}", mark) from None
    except yaml.YAMLError as exc:
        raise error(f"invalid YAML: {exc}", None) from None


def format_block(metadata: dict[str, Any] | None) -> bytes:
    """The lines of an ir_metadata block that :func:`parse_block` reads back as
    ``metadata`` (nothing for ``None``)."""
    if metadata is None:
        return b""
    text = yaml_text(metadata)
    body = "".join(f"# {line}\n" if line else "#\n" for line in text.splitlines())
    return START + b"\n" + body.encode("utf-8") + END + b"\n"


def yaml_text(metadata: dict[str, Any]) -> str:
    """``metadata`` as YAML (PyYAML's safe dumper, keys in their order), as the report shows
    it and :func:`format_block` writes it."""
    from cranfield.base.optional import require

    yaml = require("yaml", "yaml", "writing a run's ir_metadata")
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(
        metadata, Dumper=dumper, sort_keys=False, allow_unicode=True, default_flow_style=False
    )


def json_value(value: Any) -> Any:
    """``value`` (read from YAML by the safe loader) as JSON can hold it: keys as text, dates
    and times in ISO 8601, binary data in base64, sets as sorted lists, a NaN or an infinity
    as ``None`` (JSON has none)."""
    import base64
    import datetime
    import math

    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((json_value(v) for v in value), key=repr)
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
