"""Train the sentence act model (:mod:`extractors.trained.acts`) from pinned data.

``make train`` runs ``python -m extractors.trained.train`` with the repository's labelled
sets; the same data, seed and versions give the same model. Examples:

* **labelled sets** in the corpus format (``gold.commitments`` / ``gold.constraints``;
  ``gold.questions`` with spans): every sentence of a user or assistant turn is an example;
  a label is 1 when a gold item of its kind overlaps the sentence, 0 otherwise, and left
  *missing* (no loss) when the set does not label that kind at all -- a set that labels
  questions only says nothing about offers. Only conversations whose ``split`` is
  ``train`` (or that have no split) are read: dev and test splits never train.
* **weak labels** from SGD dialogue acts (one turn one example; the repository pins a
  copy of every 4th dialogue of ``sgd_acts.jsonl``, written by ``--compact-sgd``):
  NOTIFY_SUCCESS -> GRANT, NOTIFY_FAILURE -> DECLINE, REQUEST/CONFIRM/REQ_MORE -> ASK
  (assistant); AFFIRM/SELECT/AFFIRM_INTENT -> AGREE, REQUEST/REQUEST_ALTS -> ASK (user).
  OFFER, PROMISE and CONSTRAINT stay missing for SGD turns: its OFFER is a search result
  and its INFORM a search slot, not what the label guide calls an offer or a constraint.

Run: ``python -m extractors.trained.train --labelled A.jsonl B.jsonl --questions Q.jsonl
--sgd tests/data/sgd_acts_weak.jsonl --out extractors/trained/acts_model`` (``make train``;
``--arch ensemble`` trains the CNN ensemble tried for the agent's sentences instead).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, cast

from extractors.text.sentences import sentences
from extractors.trained.acts import LABELS, normalize

#: Gold subtypes (as first stated) and the act label they teach.
SUBTYPE_LABEL = {"offered": "OFFER", "agreed": "OFFER", "promised": "PROMISE",
                 "granted": "GRANT", "declined": "DECLINE", "revoked": "DECLINE"}
ASSISTANT_ACTS = {"OFFER": "OFFER", "OFFER_INTENT": "OFFER", "NOTIFY_SUCCESS": "GRANT",
                  "NOTIFY_FAILURE": "DECLINE", "REQUEST": "ASK", "CONFIRM": "ASK",
                  "REQ_MORE": "ASK"}
USER_ACTS = {"AFFIRM": "AGREE", "SELECT": "AGREE", "AFFIRM_INTENT": "AGREE",
             "REQUEST": "ASK", "REQUEST_ALTS": "ASK"}
#: The labels SGD's acts teach (the others are left missing for its turns).
WEAK_LABELS = frozenset({"GRANT", "DECLINE", "AGREE", "ASK"})
SEED = 0

Example = tuple[str, dict[str, float]]


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def labelled_examples(paths: Iterable[Path]) -> list[Example]:
    """Sentence examples from labelled sets (train split only)."""
    out: list[Example] = []
    for path in paths:
        for row in _rows(path):
            if row.get("split", "train") != "train":
                continue
            gold = row.get("gold", {})
            items: list[tuple[int, int, int, str]] = []
            taught: set[str] = set()
            if "commitments" in gold:
                taught |= {"OFFER", "PROMISE", "GRANT", "DECLINE"}
                for g in gold["commitments"]:
                    label = SUBTYPE_LABEL.get(g.get("subtype", ""))
                    if label:  # a user's claim about the agent teaches nothing here
                        items.append((g["turn"], g["start"], g["end"], label))
            if "constraints" in gold:
                taught.add("CONSTRAINT")
                items += [(g["turn"], g["start"], g["end"], "CONSTRAINT")
                          for g in gold["constraints"]]
            if gold.get("questions") and all("start" in q for q in gold["questions"]):
                taught.add("ASK")
                items += [(q["turn"], q["start"], q["end"], "ASK") for q in gold["questions"]]
            if not taught:
                continue
            for turn, message in enumerate(row["messages"]):
                text = message.get("content")
                if message.get("role") not in ("user", "assistant") or not isinstance(text, str):
                    continue
                for start, end in sentences(text):
                    cats = {label: 0.0 for label in taught}
                    for t, s, e, label in items:
                        if t == turn and label in taught and s < end and start < e:
                            cats[label] = 1.0
                    out.append((normalize(text[start:end], message.get("role")), cats))
    return out


def compact_sgd(source: Path, target: Path, every: int) -> int:
    """Write every ``every``-th dialogue of SGD's act file as one line per turn, ``{"id",
    "role", "text", "acts", "informs"}`` (the weak labels' pinned copy in the repository);
    return the number of turns written."""
    n_turns = 0
    with target.open("w", encoding="utf-8") as out:
        for n, row in enumerate(_rows(source)):
            if n % every:
                continue
            for turn in row["acts"]:
                acts = sorted({a["act"] for a in turn["acts"]})
                informs = sorted({a["slot"] for a in turn["acts"] if a["act"] == "INFORM"}
                                 - {"intent"})
                out.write(json.dumps({"id": f"{row['id']}#{turn['turn']}", "role": turn["role"],
                                      "text": row["messages"][turn["turn"] - 1]["content"],
                                      "acts": acts, "informs": informs},
                                     ensure_ascii=False) + "\n")
                n_turns += 1
    return n_turns


def sgd_examples(path: Path) -> list[Example]:
    """Turn examples from SGD's dialogue acts (weak labels; see :func:`compact_sgd`)."""
    out: list[Example] = []
    for row in _rows(path):
        mapping = ASSISTANT_ACTS if row["role"] == "assistant" else USER_ACTS
        found = {mapping[a] for a in row["acts"] if a in mapping}
        if row["role"] == "user" and row["informs"]:
            found.add("CONSTRAINT")
        # SGD's OFFER is a search result put to the user ("there's a concert at the
        # Fillmore on March 13th") and its user INFORM a search slot: neither is what the
        # label guide calls an offer or a constraint, so those labels stay missing here
        cats = {label: float(label in found) for label in LABELS if label in WEAK_LABELS}
        out.append((normalize(row["text"], row["role"]), cats))
    return out


def architecture(arch: str, length: int) -> dict[str, Any]:
    """The textcat model config: ``bow`` (unigrams and bigrams: the shipped model) or
    ``ensemble`` (the same bag of words beside a small CNN over hashed word, prefix,
    suffix and shape embeddings). The ensemble was tried for the agent's sentences and
    does not ship: its gain on dev did not survive a retraining with more data (README,
    "The act model"); ``--arch ensemble`` rebuilds it for the next such comparison."""
    bow = {"@architectures": "spacy.TextCatBOW.v3", "exclusive_classes": False,
           "ngram_size": 2, "no_output_layer": False, "length": length}
    if arch == "bow":
        return bow
    if arch == "ensemble":
        return {"@architectures": "spacy.TextCatEnsemble.v2", "nO": None, "linear_model": bow,
                "tok2vec": {"@architectures": "spacy.HashEmbedCNN.v2", "width": 64,
                            "depth": 2, "embed_size": 2000, "window_size": 1,
                            "maxout_pieces": 3, "subword_features": True,
                            "pretrained_vectors": None}}
    raise ValueError(f"unknown architecture {arch!r}: bow or ensemble")


def train(examples: list[Example], out: Path, *, epochs: int = 8, seed: int = SEED,
          length: int = 2 ** 16, arch: str = "bow") -> None:
    """Train the multilabel classifier of ``arch`` (see :func:`architecture`) and save it
    to ``out``."""
    import spacy
    from spacy.pipeline import TextCategorizer
    from spacy.training import Example as SpacyExample
    from spacy.util import minibatch
    from thinc.api import fix_random_seed  # spaCy's own dependency, which seeds it

    fix_random_seed(seed)
    nlp = spacy.blank("en")
    textcat = cast(TextCategorizer, nlp.add_pipe("textcat_multilabel", config={
        "model": architecture(arch, length)}))
    for label in LABELS:
        textcat.add_label(label)
    data = [SpacyExample.from_dict(nlp.make_doc(text), {"cats": cats})
            for text, cats in examples]
    optimizer = nlp.initialize(lambda: data)
    rng = random.Random(seed)
    for epoch in range(epochs):
        rng.shuffle(data)
        losses: dict[str, float] = {}
        for batch in minibatch(data, size=64):
            nlp.update(batch, sgd=optimizer, losses=losses)
        print(f"epoch {epoch + 1}: loss {losses.get('textcat_multilabel', 0.0):.2f}")
    out.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--labelled", type=Path, nargs="*", default=[])
    parser.add_argument("--questions", type=Path, nargs="*", default=[])
    parser.add_argument("--sgd", type=Path, help="weak labels written by --compact-sgd")
    parser.add_argument("--compact-sgd", type=Path, nargs=2, metavar=("SOURCE", "TARGET"),
                        help="write the weak-label copy of SGD's act file and stop")
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--arch", choices=("bow", "ensemble"), default="bow")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.compact_sgd:
        source, target = args.compact_sgd
        print(compact_sgd(source, target, args.every), "turns")
        return
    if args.out is None:
        parser.error("--out is required")
    examples = labelled_examples([*args.labelled, *args.questions])
    if args.sgd:
        examples += sgd_examples(args.sgd)
    positives = Counter(label for _, cats in examples for label, v in cats.items() if v)
    print(f"{len(examples)} examples; positives {dict(sorted(positives.items()))}")
    train(examples, args.out, epochs=args.epochs, arch=args.arch)


if __name__ == "__main__":
    main()
