"""Tag names are checked when a parser is built: a decision list, the tags a parser asks
for, or what the shared split loop asks of a corpus (its refusal and need tags, its word
classes) must name what the corpus' rule files have, or the parser is a RuleError naming
the file. And the shared rule files hold no corpus' part."""

from __future__ import annotations

from pathlib import Path

import pytest

from actparse import registry
from actparse.corpora.casino import CasinoParser
from actparse.corpora.craigslist.parser import INTENT_RULES as CRAIGSLIST_RULES
from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.corpora.dealornodeal import INTENT_RULES, DealOrNoDealParser
from actparse.corpora.mutualfriends.parser import MutualFriendsParser
from actparse.corpora.splits.lexicon import load_split_lexicon
from actparse.engine.decisions import DecisionList, IntentRule
from actparse.engine.rulefiles import RuleError, read_document, rules_dir
from actparse.engine.strategies import corpus_classes


def test_every_shipped_corpus_parser_builds() -> None:
    for parser in (CraigslistParser, DealOrNoDealParser, CasinoParser, MutualFriendsParser):
        parser()


def test_a_decision_list_records_the_tags_its_conditions_name() -> None:
    assert INTENT_RULES.named == {"agree", "disagree", "greeting", "need", "question", "smalltalk"}
    # Computed tags are named too; the reader's last act is declared as no tag.
    assert {"has_price", "vague-price", "negative"} <= CRAIGSLIST_RULES.named
    assert "inquiry" not in CRAIGSLIST_RULES.named


def test_a_misspelt_tag_in_a_decision_list_names_the_rule_file() -> None:
    class Misspelt(DealOrNoDealParser):
        intent_rules = DecisionList(
            (*INTENT_RULES, IntentRule("needs", "inform", lambda m: m.has("nede")))
        )

    with pytest.raises(RuleError, match=r"rules/dealornodeal/tags\.yaml: .*\['nede'\]"):
        Misspelt()


@pytest.mark.parametrize("attribute", ["refusal_tag", "need_tag"])
def test_a_misspelt_tag_of_the_shared_split_loop_names_the_rule_file(attribute: str) -> None:
    misspelt = type("Misspelt", (CasinoParser,), {attribute: "disagre"})
    with pytest.raises(RuleError, match=r"rules/casino/tags\.yaml: .*\['disagre'\]"):
        misspelt()


@pytest.mark.parametrize("attribute", ["need_subject", "concession"])
def test_a_misspelt_word_class_of_the_shared_split_loop_names_the_lexicon(attribute: str) -> None:
    misspelt = type("Misspelt", (DealOrNoDealParser,), {attribute: "concesion"})
    with pytest.raises(RuleError, match=r"rules/dealornodeal/splits\.yaml: .*'concesion'"):
        misspelt()


def test_a_rule_file_without_a_tag_the_parser_asks_for_is_named(tmp_path: Path) -> None:
    path = tmp_path / "tags.yaml"
    path.write_text(
        "rules:\n  - {name: q, tag: question, match: last-token, values: ['?']}\n",
        encoding="utf-8",
    )
    from actparse.corpora.craigslist.parser import load_tag_rules

    with pytest.raises(RuleError, match=rf"{tmp_path}/tags\.yaml: .*'agree'"):
        CraigslistParser(rules=load_tag_rules(str(path)))


def _shared_files() -> list[Path]:
    root = Path(str(rules_dir()))
    return sorted([*root.glob("*.yaml"), *(root / "splits").glob("*.yaml")])


def _keys(doc: object) -> set[str]:
    if isinstance(doc, dict):
        return {str(k) for k in doc} | {k for v in doc.values() for k in _keys(v)}
    if isinstance(doc, list):
        return {k for v in doc for k in _keys(v)}
    return set()


@pytest.mark.parametrize("path", _shared_files(), ids=lambda p: p.name)
def test_no_shared_rule_file_has_a_corpus_key(path: Path) -> None:
    corpora = set(registry.names())
    assert not _keys(read_document(path)) & corpora


def _words(doc: object) -> set[str]:
    if isinstance(doc, dict):
        return {w for v in doc.values() for w in _words(v)}
    if isinstance(doc, list):
        return {w for v in doc for w in _words(v)}
    return {doc} if isinstance(doc, str) else set()


def test_no_shared_word_list_has_a_word_of_one_corpus_items() -> None:
    """A corpus' item words (its split lexicon, its strategy items) are in its folder;
    the shared lexicon's word classes and the strategy rules' classes have none."""
    own: dict[str, set[str]] = {}
    for corpus in ("dealornodeal", "casino"):
        lexicon = load_split_lexicon(corpus)
        own[corpus] = set(lexicon.item_words)
    items = set(corpus_classes()["item"])
    root = Path(str(rules_dir()))
    shared = _words(read_document(root / "splits" / "lexicon.yaml")["words"])
    shared |= _words(read_document(root / "strategies.yaml")["classes"])
    for corpus, words in own.items():
        assert not shared & (words | items) - _others(own, corpus), corpus


def _others(own: dict[str, set[str]], corpus: str) -> set[str]:
    """The words of the other corpora: a word two corpora use is shared."""
    return {w for c, words in own.items() if c != corpus for w in words}
