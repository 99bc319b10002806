"""What the corpus generators of this folder share: the category of NumPy's exception, as the corpus
records it, and a suite of cases written to CORPUS/<name>.jsonl, one JSON object a line."""
import json
import os

CORPUS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def category(error):
    """NumPy's exception as the corpus records it: the first of IndexError, TypeError, ValueError and
    OverflowError it is (AxisError, an IndexError and a ValueError, is IndexError; UFuncTypeError is a
    TypeError); any other exception is a fault of the generator and is raised again."""
    for kind in (IndexError, TypeError, ValueError, OverflowError):
        if isinstance(error, kind):
            return kind.__name__
    raise error


class Suite:
    """Cases of one suite, each op and arguments once, numbered NAME-<letter>00001 on."""

    def __init__(self, name, letter):
        self.name = name
        self.letter = letter
        self.cases = []
        self.seen = set()

    def add(self, op, args, expect):
        """Adds a case unless the same op and arguments came before; expect is the case's expectation,
        or a function whose result (an encoded array) or exception (its category) is the expectation,
        called only for a new case."""
        key = json.dumps([op, args], sort_keys=True)
        if key in self.seen:
            return
        self.seen.add(key)
        if callable(expect):
            from corpus_encoding import encode
            try:
                expect = {"array": encode(expect())}
            except Exception as error:  # noqa: BLE001 - the category is what the corpus records
                expect = {"error": category(error)}
        self.cases.append({"id": "%s-%s%05d" % (self.name, self.letter, len(self.cases) + 1), "suite": self.name, "op": op,
                           "args": args, "expect": expect})

    def write(self):
        with open(os.path.join(CORPUS, self.name + ".jsonl"), "w") as out:
            for case in self.cases:
                out.write(json.dumps(case) + "\n")
        return len(self.cases)
