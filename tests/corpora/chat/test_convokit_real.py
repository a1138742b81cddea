"""Against the real ConvoKit, where it is installed (not in CI: convokit 5 installs torch,
about 3 minutes and 6.5 GB): the folder actparse writes loads with convokit.Corpus, and the
Transformer puts the same acts into utterance metadata as `actparse label` does. Without
ConvoKit, importing actparse.convokit says how to install it."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES

from actparse.io.batch import label_path

CORPUS = FIXTURES / "convokit_corpus"
HAS_CONVOKIT = importlib.util.find_spec("convokit") is not None


@pytest.mark.skipif(HAS_CONVOKIT, reason="convokit is installed")
def test_without_convokit_the_import_says_how_to_install_it() -> None:
    with pytest.raises(ImportError, match=r"pip install 'actparse\[convokit\]'"):
        importlib.import_module("actparse.convokit")


@pytest.mark.skipif(not HAS_CONVOKIT, reason="needs convokit (pip install 'actparse[convokit]')")
def test_the_written_folder_loads_with_convokit(tmp_path: Path) -> None:
    from convokit import Corpus

    out = tmp_path / "labelled"
    label_path(CORPUS, out)
    corpus = Corpus(filename=str(out))
    original = Corpus(filename=str(CORPUS))
    assert sorted(corpus.get_utterance_ids()) == sorted(original.get_utterance_ids())
    for utterance in corpus.iter_utterances():
        before = original.get_utterance(utterance.id)
        assert set(utterance.meta["actparse"]) >= {"intent", "coarse", "price", "split"}
        assert (utterance.text, utterance.speaker.id, utterance.reply_to) == (
            before.text,
            before.speaker.id,
            before.reply_to,
        )
    assert "actparse" in corpus.meta_index.utterances_index
    assert corpus.get_conversation("bike").meta["listing_price"] == 200


@pytest.mark.skipif(not HAS_CONVOKIT, reason="needs convokit (pip install 'actparse[convokit]')")
def test_the_transformer_gives_the_acts_actparse_label_writes(tmp_path: Path) -> None:
    from convokit import Corpus

    from actparse.convokit import ActparseTransformer

    label_path(CORPUS, tmp_path / "labelled")
    written = Corpus(filename=str(tmp_path / "labelled"))
    corpus = ActparseTransformer().fit_transform(Corpus(filename=str(CORPUS)))
    for utterance in corpus.iter_utterances():
        assert utterance.meta["actparse"] == written.get_utterance(utterance.id).meta["actparse"]
    assert "actparse" in corpus.meta_index.utterances_index


@pytest.mark.skipif(not HAS_CONVOKIT, reason="needs convokit (pip install 'actparse[convokit]')")
def test_the_transformer_labels_a_corpus_built_in_memory() -> None:
    from convokit import Corpus, Speaker, Utterance

    from actparse.convokit import ActparseTransformer

    ann, bob = Speaker(id="ann"), Speaker(id="bob")
    corpus = Corpus(
        utterances=[
            Utterance(id="b", speaker=bob, conversation_id="c", timestamp=None, text="$90?"),
            Utterance(id="a", speaker=ann, conversation_id="c", timestamp=None, text="$100."),
        ]
    )
    transformer = ActparseTransformer(field="acts")
    assert transformer.fit(corpus) is transformer
    assert transformer.transform(corpus) is corpus
    assert all("acts" in u.meta for u in corpus.iter_utterances())
