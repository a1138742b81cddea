"""actparse inside spaCy: the tokenizer, the components, saving and loading a pipeline,
other tokenizers, multiprocessing, DocBin, and the acts of a dialogue of Docs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import spacy
from corpus_fixtures import FIXTURES
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc, DocBin

from actparse import parse_dialogue, read_records
from actparse.engine.rulefiles import shipped
from actparse.engine.tokenizer import tokenize
from actparse.extensions import DOC_EXTENSIONS, SPAN_EXTENSIONS, register_extensions
from actparse.models import Listing, Party
from actparse.spacy_components import CocoaTokenizer, blank_pipeline, parse_docs

ROOT = Path(__file__).resolve().parent.parent


def _messages(path: Path) -> list[str]:
    return [t.text for r in read_records(path) for t in r.dialogue().turns if t.is_message]


@pytest.fixture(scope="module")
def nlp() -> spacy.language.Language:
    return blank_pipeline()


@pytest.fixture(scope="module")
def messages() -> list[str]:
    return _messages(FIXTURES / "craigslist_validation_20.jsonl")


_PIPELINE = blank_pipeline()


def _english() -> spacy.language.Language:
    """spaCy's own English tokenizer with our components."""
    nlp = spacy.blank("en")
    nlp.add_pipe("actparse_price_linker")
    nlp.add_pipe("actparse_tagger")
    return nlp


def _view(doc: Doc) -> tuple[Any, ...]:
    """What the components set, comparable across tokenizers."""
    return (doc.text, [(m.value, m.type) for m in doc._.prices], doc._.tags)


# --- the tokenizer --------------------------------------------------------------------


def test_text_is_kept_and_norms_are_cocoas_tokens(nlp: spacy.language.Language) -> None:
    text = 'I can\'t do $1,200.. maybe $ 5 / "OK"?\n\nCANNOT'
    doc = nlp(text)
    assert doc.text == text
    assert [t.norm_ for t in doc if not t.norm_.isspace()] == tokenize(text)
    assert [t.text for t in doc][:6] == ["I", "ca", "n't", "do", "$1,200", ".."]
    assert "$ 5" in [t.text for t in doc]  # Cocoa glues a "$" to its number


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aB$5.,\"'/\\> \n`İΣ?-")), max_size=30))
def test_any_text_is_kept_and_tokenized_as_cocoa(text: str) -> None:
    doc = _PIPELINE(text)
    assert doc.text == text
    assert [t.norm_ for t in doc if not t.norm_.isspace()] == tokenize(text)


def test_tokenizer_alone() -> None:
    nlp = spacy.blank("en")
    nlp.tokenizer = CocoaTokenizer(nlp.vocab)
    text = "I can't do $1,200.. maybe 1100$?"
    assert [t.norm_ for t in nlp(text)] == tokenize(text)


# --- the components -------------------------------------------------------------------


def test_components_set_prices_and_tags(nlp: spacy.language.Language) -> None:
    assert nlp.pipe_names == ["actparse_price_linker", "actparse_tagger"]
    doc = nlp("Would you take $250? That is the lowest I can go")
    assert [m.value for m in doc._.prices] == [250.0]
    assert [(s.text, s.label_, s._.price) for s in doc.spans["prices"]] == [
        ("$250", "price", 250.0)
    ]
    assert doc._.tags == ("question", "vague-price", "price", "has_price")


def test_listing_checks_apply_when_the_listing_is_given(nlp: spacy.language.Language) -> None:
    doc = nlp.make_doc("i can do 900 .")
    doc._.listing = Listing(title="", description="", price=100.0)
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    assert doc._.prices == []


def test_extensions_register_idempotently() -> None:
    register_extensions()
    register_extensions()
    from spacy.tokens import Span

    assert all(Doc.has_extension(name) for name in DOC_EXTENSIONS)
    assert all(Span.has_extension(name) for name in SPAN_EXTENSIONS)


# --- any tokenizer --------------------------------------------------------------------


def test_spacys_tokenizer_gives_the_same_prices_and_tags(
    nlp: spacy.language.Language, messages: list[str]
) -> None:
    english = _english()
    doc = english("Would you take $250?")
    assert [t.text for t in doc][3:5] == ["$", "250"]
    (span,) = doc.spans["prices"]
    assert (span.start, span.end, span._.price) == (3, 5, 250.0)
    ours = [_view(d) for d in nlp.pipe(messages)]
    theirs = [_view(d) for d in english.pipe(messages)]
    assert sum(bool(v[1]) for v in ours) >= 10  # the fixture has prices to find
    assert theirs == ours


@pytest.mark.corpus
@pytest.mark.slow
def test_spacys_tokenizer_finds_every_validation_price(data_dir: Path) -> None:
    # Before, spaCy's tokenizer left 375 messages with a price of about a thousand.
    texts = _messages(data_dir / "craigslist" / "validation.jsonl")
    with_price = [bool(d._.prices) for d in _english().pipe(texts)]
    assert with_price == [bool(d._.prices) for d in blank_pipeline().pipe(texts)]
    assert sum(with_price) > 1000


# --- saving and loading ---------------------------------------------------------------


def _load_and_run(path: Path, texts: list[str], env: dict[str, str], prelude: str) -> Any:
    """Load a saved pipeline in a fresh interpreter and return what it makes of texts."""
    code = (
        f"{prelude}import json, spacy; nlp = spacy.load({str(path)!r}); "
        f"print(json.dumps([[t.text for t in nlp.pipe([])] or None, nlp.pipe_names, "
        f"type(nlp.tokenizer).__name__, [[d.text, [[m.value, m.type] for m in d._.prices], "
        f"list(d._.tags)] for d in nlp.pipe({texts!r})]]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd="/"
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _saved_config_paths(path: Path) -> list[str]:
    """Every string value of a saved config that looks like a file path."""
    config = spacy.util.load_config(path / "config.cfg", interpolate=False)
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, str) and ("/" in node or "\\" in node):
            found.append(node)

    walk(dict(config))
    return found


def test_saved_pipeline_loads_in_a_fresh_process(
    tmp_path: Path, nlp: spacy.language.Language, messages: list[str]
) -> None:
    nlp.to_disk(tmp_path / "nlp")
    assert (tmp_path / "nlp" / "actparse_price_linker" / "price_lexicon.json").is_file()
    assert (tmp_path / "nlp" / "actparse_tagger" / "rules.yaml").is_file()
    config = (tmp_path / "nlp" / "config.cfg").read_text()
    assert '@tokenizers = "actparse.CocoaTokenizer.v1"' in config
    assert _saved_config_paths(tmp_path / "nlp") == []
    texts = messages[:30]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    _, names, tokenizer, docs = _load_and_run(
        tmp_path / "nlp", texts, env, "import actparse.spacy_components; "
    )
    assert names == nlp.pipe_names and tokenizer == "CocoaTokenizer"
    assert docs == [
        [d.text, [[m.value, m.type] for m in d._.prices], list(d._.tags)] for d in nlp.pipe(texts)
    ]


def test_spacy_finds_the_tokenizer_through_its_entry_point(
    tmp_path: Path, nlp: spacy.language.Language
) -> None:
    """The entry points pyproject declares, installed as metadata on the path of a fresh
    interpreter that never imports actparse itself: spacy.load finds everything."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    groups = project["entry-points"]
    assert groups["spacy_tokenizers"] == {
        "actparse.CocoaTokenizer.v1": "actparse.spacy_components:create_cocoa_tokenizer"
    }
    info = tmp_path / "site" / "actparse_under_test-0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: actparse-under-test\nVersion: 0\n")
    (info / "entry_points.txt").write_text(
        "".join(
            f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in eps.items())
            for group, eps in groups.items()
        )
    )
    nlp.to_disk(tmp_path / "nlp")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)])}
    _, _names, tokenizer, docs = _load_and_run(tmp_path / "nlp", ["is $300 ok?"], env, "")
    assert tokenizer == "CocoaTokenizer"
    assert docs == [["is $300 ok?", [[300.0, "price"]], ["question", "price", "has_price"]]]


def test_own_rules_and_lexicon_are_saved_with_the_pipeline(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(shipped("craigslist", "tags.yaml").read_text(encoding="utf-8") + "\n# mine\n")
    nlp = blank_pipeline(rules=rules)
    nlp.to_disk(tmp_path / "nlp")
    rules.unlink()  # the saved pipeline must not need it
    assert _saved_config_paths(tmp_path / "nlp") == []
    again = spacy.load(tmp_path / "nlp")
    assert again.get_pipe("actparse_tagger").rules_text.endswith("# mine\n")
    assert again("is $300 ok?")._.tags == nlp("is $300 ok?")._.tags


def test_a_lexicon_given_at_initialize_is_saved_with_the_pipeline(tmp_path: Path) -> None:
    from actparse.corpora.craigslist.lexicon import PriceLexicon

    lexicon = tmp_path / "lexicon.json"
    # No word context at all: only "$" marks a price.
    PriceLexicon(left=frozenset({"nothing"}), right=frozenset({"nothing"})).save(lexicon)
    text = "i can do 900 . or $850"
    nlp = blank_pipeline()
    assert [m.value for m in nlp(text)._.prices] == [900.0, 850.0]
    nlp.config["initialize"]["components"]["actparse_price_linker"] = {"lexicon_path": str(lexicon)}
    nlp.initialize()
    assert [m.value for m in nlp(text)._.prices] == [850.0]
    nlp.to_disk(tmp_path / "nlp")
    lexicon.unlink()
    assert [m.value for m in spacy.load(tmp_path / "nlp")(text)._.prices] == [850.0]


# --- values survive processes and DocBin ----------------------------------------------


def test_values_survive_n_process_2(nlp: spacy.language.Language, messages: list[str]) -> None:
    one = [_view(d) for d in nlp.pipe(messages)]
    two = list(nlp.pipe(messages, n_process=2, batch_size=16))
    assert [_view(d) for d in two] == one
    priced = next(d for d in two if d._.prices)
    assert type(priced._.prices[0]).__name__ == "PriceMention"
    assert isinstance(priced._.tags, tuple)


def test_values_survive_docbin(
    tmp_path: Path, nlp: spacy.language.Language, messages: list[str]
) -> None:
    record = json.loads((FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    docs = [*nlp.pipe(messages), *parse_docs(record)]
    docs[0]._.listing = Listing(title="bike", description="", price=100.0)
    DocBin(store_user_data=True, docs=docs).to_disk(tmp_path / "docs.spacy")
    back = list(DocBin().from_disk(tmp_path / "docs.spacy").get_docs(nlp.vocab))
    assert [_view(d) for d in back] == [_view(d) for d in docs]
    assert [(d._.intent, d._.coarse, d._.act) for d in back] == [
        (d._.intent, d._.coarse, d._.act) for d in docs
    ]
    assert back[0]._.listing == docs[0]._.listing
    assert isinstance(back[-1]._.tags, tuple)


# --- the acts of a dialogue -----------------------------------------------------------


def test_parse_docs_gives_each_turn_its_act() -> None:
    for line in (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[:5]:
        record = json.loads(line)
        acts = parse_dialogue(record)
        docs = parse_docs(record)
        assert [(d._.intent, d._.coarse) for d in docs] == [(a.intent, a.coarse) for a in acts]
        assert [d._.act for d in docs] == [a.to_dict() for a in acts]
        assert [d.text for d in docs] == record["utterance"]


def test_parse_docs_of_other_corpora() -> None:
    raw = json.loads((FIXTURES / "casino_20.json").read_text())[0]
    docs = parse_docs(raw)
    assert [d._.coarse for d in docs] == [a.coarse for a in parse_dialogue(raw)]
    assert any(d._.act.get("split") for d in docs)


def test_parse_docs_of_texts_and_docs(nlp: spacy.language.Language) -> None:
    seller = "Hi, yes it is still available. It is in great shape and I am asking $300 for it."
    buyer = "That is a bit much for me. Would you take $200 if I pick it up today myself?"
    turns = [
        "Hello! Is the bike still available? I am very interested in it for my son.",
        seller,
        nlp(buyer),  # a Doc is used as it is
        "I could do $260, I just had it tuned up and it has new tires on it.",
        "How about $240 and we have a deal? I can pay cash right now.",
        "Deal, $240 it is.",
    ]
    # Craigslist prices are read against each agent's role.
    docs = parse_docs(turns, parties=(Party(role="buyer"), Party(role="seller")))
    assert docs[2] is turns[2]
    assert [d._.intent for d in docs] == [
        "intro",
        "init-price",
        "counter-price",
        "counter-price",
        "counter-price",
        "agree",
    ]
    assert [d._.coarse for d in docs][:2] == ["greet", "propose"]
    assert docs[1]._.act["price"] == 300.0
    assert [(m.value, m.type) for m in docs[5]._.prices] == [(240.0, "my_price")]
    with pytest.raises(ValueError, match="2 turns but 1 agents"):
        parse_docs(turns[:2], agents=[0])
