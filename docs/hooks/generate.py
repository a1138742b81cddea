"""MkDocs hook: the pages generated from the rules and the command line, at build time.

A page holding a marker ``<!-- generated: NAME -->`` gets, in its place, the Markdown of
:data:`GENERATORS` ``[NAME]``, computed when the page is built: the act space and the
strategies are read from the rule files under ``rules/`` then (never a cached copy), so
the site cannot disagree with them; the command line from the typer app.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

#: The repository's root: ``rules/`` is read from here, not from an installed copy.
ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"<!--\s*generated:\s*([\w-]+)\s*-->")


def _code(text: str) -> str:
    """``text`` as an inline code span (a table leaves a pipe inside one alone)."""
    ticks = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _cell(text: str) -> str:
    """Plain text for a table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _quotes(texts: Iterable[str]) -> str:
    return ", ".join(_code(t) for t in texts)


def _folder(spec: str, root: Path) -> Traversable | None:
    """A corpus' rule folder, in the source tree where it is actparse's own.

    A plain name is ``root/<name>`` (the source tree's, so the page shows the rules being
    edited), anything else as the registry resolves it.
    """
    from actparse.engine.rulefiles import rule_folder

    if spec and re.fullmatch(r"[\w-]+", spec):
        return root / spec
    return rule_folder(spec)


# ---------------------------------------------------------------------------- acts


def acts_markdown(root: Path | None = None) -> str:
    """The act-space page's Markdown, read from the rule files at build time.

    Every coarse act with its definition, then for each registered corpus its native
    intents per act (its ``coarse.yaml``) and its tag rules with their examples (its
    ``tags.yaml``), read from ``root`` (default: the repository's rules/).
    """
    from actparse import registry
    from actparse.engine.acts import COARSE_FILE, parse_act_space, parse_coarse_map
    from actparse.engine.rulefiles import read_document
    from actparse.engine.tags import parse_rules

    root = ROOT / "rules" if root is None else root
    acts_file = root / "acts.yaml"
    space = parse_act_space(read_document(acts_file), "rules/acts.yaml")
    corpora = [c for c in registry.corpora() if c.rules]
    maps: dict[str, dict[str, list[str]]] = {}
    for corpus in corpora:
        folder = _folder(corpus.rules, root)
        file = folder.joinpath(COARSE_FILE) if folder is not None else None
        if file is None or not file.is_file():
            continue
        source = f"rules/{corpus.rules}/{COARSE_FILE}"
        found = parse_coarse_map(read_document(file), source, corpus.name, space)
        by_act: dict[str, list[str]] = {}
        for intent, act in found.acts.items():
            by_act.setdefault(act, []).append(intent)
        maps[corpus.name] = by_act

    titles = {c.name: c.title for c in corpora}
    out = [
        "Every coarse act of the shared inventory (`rules/acts.yaml`), and the native "
        "intents each corpus maps onto it (`coarse.yaml` of the corpus' rule folder). "
        "An empty cell: the corpus never gives that act.",
        "",
        "| act | definition | " + " | ".join(titles[n] for n in maps) + " |",
        "| --- | --- | " + " | ".join("---" for _ in maps) + " |",
    ]
    for act in space.acts:
        cells = [_quotes(maps[name].get(act.name, [])) for name in maps]
        out.append(f"| **{act.name}** | {_cell(act.definition)} | " + " | ".join(cells) + " |")
    out.append("")
    for corpus in corpora:
        folder = _folder(corpus.rules, root)
        file = folder.joinpath("tags.yaml") if folder is not None else None
        out += [f"## {corpus.title}", ""]
        if corpus.name in maps:
            out.append(f"Coarse map: `rules/{corpus.rules}/{COARSE_FILE}`.")
            out.append("")
            for act in space.acts:
                intents = maps[corpus.name].get(act.name)
                if intents:
                    out.append(f"- **{act.name}**: {_quotes(intents)}")
            out.append("")
        if file is None or not file.is_file():
            continue
        doc = read_document(file)
        rules = parse_rules(doc, f"rules/{corpus.rules}/tags.yaml")
        shared = "".join(f", `rules/tags/{name}.yaml`" for name in doc.get("include", []))
        out += [
            f"The tags its parser decides the intents from (`rules/{corpus.rules}/tags.yaml`"
            f"{shared}): each rule with the examples it matches and the counterexamples it"
            " does not (the test-suite checks both).",
            "",
            "| tag | rule | examples | counterexamples |",
            "| --- | --- | --- | --- |",
        ]
        for rule in rules:
            name = f"`{rule.name}`" + (f"<br>{_cell(rule.description)}" if rule.description else "")
            out.append(
                f"| {rule.tag} | {name} | {_quotes(rule.examples)} | "
                f"{_quotes(rule.counterexamples)} |"
            )
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------- strategies


def strategies_markdown(path: Path | None = None) -> str:
    """The strategies page's Markdown, read from the strategy rule file at build time.

    Every strategy label with its definition (the file's ``labels``) and its rules, each
    with its description, examples and counterexamples (``rules/strategies.yaml``).
    """
    from actparse.engine.rulefiles import read_document
    from actparse.engine.strategies import LABELS, NON_STRATEGIC
    from actparse.engine.tags import parse_rules

    path = ROOT / "rules" / "strategies.yaml" if path is None else path
    doc = read_document(path)
    definitions = {k: v for k, v in (doc.get("labels") or {}).items() if k != "__line__"}
    rules = parse_rules(doc, "rules/strategies.yaml")
    out = [
        "CaSiNo's negotiation strategy labels, which actparse gives to a message of any "
        "corpus (`rules/strategies.yaml`). A label holds when any of its rules matches; "
        f"`{NON_STRATEGIC}` is given only to a message no other label fits. Each rule's "
        "examples are messages it matches and its counterexamples messages it does not "
        "(the test-suite checks both).",
        "",
        "| label | definition | rules |",
        "| --- | --- | --- |",
    ]
    for label in LABELS:
        count = sum(r.tag == label for r in rules)
        meaning = _cell(str(definitions.get(label, "")))
        out.append(f"| [`{label}`](#{label}) | {meaning} | {count} |")
    out.append("")
    for label in LABELS:
        out += [f"## {label} {{#{label}}}", "", str(definitions.get(label, "")), ""]
        own = [r for r in rules if r.tag == label]
        if not own:
            out += ["No rule: given where no other label holds.", ""]
        for rule in own:
            out += [f"### `{rule.name}`", ""]
            if rule.description:
                out += [rule.description, ""]
            out += [f"- **Examples**: {_quotes(rule.examples)}"]
            if rule.counterexamples:
                out += [f"- **Counterexamples**: {_quotes(rule.counterexamples)}"]
            out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------- command line


def _command_markdown(command: Any, name: str, level: str) -> list[str]:
    ctx = type(command).context_class(command, info_name=name)
    usage = " ".join(["actparse", *([] if name == "actparse" else [name])])
    usage += " " + " ".join(command.collect_usage_pieces(ctx))
    out = [f"{level} {name}" if name != "actparse" else "", "", "```text", usage.strip(), "```", ""]
    if command.help:
        out += [command.help.strip(), ""]
    rows = []
    for param in command.get_params(ctx):
        if getattr(param, "param_type_name", "") == "argument":
            rows.append(
                (param.metavar or str(param.name).upper(), getattr(param, "help", "") or "")
            )
            continue
        record = param.get_help_record(ctx)
        if record is not None:
            rows.append(record)
    if rows:
        out += ["| argument or option | meaning |", "| --- | --- |"]
        out += [f"| {_code(names)} | {_cell(text)} |" for names, text in rows]
        out.append("")
    if command.epilog:
        # The epilog's Markdown headings as this page's.
        out += [re.sub(r"^\*\*(\w[\w ]*)\*\*$", rf"{level}# \1", command.epilog, flags=re.M), ""]
    return out


def cli_markdown() -> str:
    """The command-line page's Markdown, from the typer app.

    Every command: usage, help, arguments and options, examples and exit statuses; then
    the exit statuses of every command.
    """
    import typer

    from actparse.cli import app
    from actparse.cli_exits import exit_table

    group = typer.main.get_command(app)
    out = _command_markdown(group, "actparse", "##")
    ctx = type(group).context_class(group, info_name="actparse")
    for name in group.list_commands(ctx):
        out += _command_markdown(group.get_command(ctx, name), name, "##")
    out += ["## Exit statuses of every command", "", exit_table(), ""]
    return "\n".join(out)


# ---------------------------------------------------------------------- the hook

GENERATORS: dict[str, Callable[[], str]] = {
    "acts": acts_markdown,
    "strategies": strategies_markdown,
    "cli": cli_markdown,
}


def render(markdown: str) -> str:
    """``markdown`` with every marker replaced by its generated Markdown."""
    return MARKER.sub(lambda m: GENERATORS[m[1]](), markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return render(markdown)


#: A Sphinx role the docstrings use, as Markdown renders it: ``:class:<code>~a.B</code>``.
ROLE = re.compile(r":(?:class|func|mod|data|attr|meth|exc|obj):<code>(~?)([^<]*)</code>(\\ )?")


#: A paragraph ending in reST's literal-block marker (``space::``), as Markdown renders it.
LITERAL_MARKER = re.compile(r"::</p>")


def plain_roles(html: str) -> str:
    """The docstrings' reST as plain HTML: roles as code, a ``::`` marker as a colon.

    ``~a.b.C`` becomes ``C``, ``a.b.C`` stays as it is, and the paragraph before a code
    block ends in one colon rather than reST's two.
    """

    def code(m: re.Match[str]) -> str:
        target = m[2].rsplit(".", 1)[-1] if m[1] else m[2]
        return f"<code>{target}</code>"

    return LITERAL_MARKER.sub(":</p>", ROLE.sub(code, html).replace("</code>\\ ", "</code>"))


def on_page_content(html: str, **kwargs: Any) -> str:
    return plain_roles(html)
