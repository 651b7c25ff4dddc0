"""Documents read as the BSON the server sent (pymongo's `RawBSONDocument`) and decoded when first used:
for a cached reading of many documents of which a request uses one or two (docs/DECISIONS.md,
"A brand's products are decoded when used")."""

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from bson import decode
from bson.raw_bson import RawBSONDocument

from data.mongo import Document, get_db


class LazyRecord[R]:
    """A record decoded by `decode` when first asked for, then kept."""

    __slots__ = ("_decode", "_record")

    def __init__(self, decode: Callable[[], R]) -> None:
        self._decode = decode
        self._record: R | None = None

    def record(self) -> R:
        if self._record is None:
            self._record = self._decode()
        return self._record


def aggregate_lazily(
    collection_name: str, pipeline: list[Document], field: str
) -> Iterator[tuple[RawBSONDocument, LazyRecord[Any]]]:
    """The documents of the aggregation as BSON, each with its `field` as a `LazyRecord`: decoded when
    used into the plain dict any read gives."""
    documents = get_db()[collection_name]
    codec_options = documents.codec_options
    raw = documents.with_options(codec_options=codec_options.with_options(document_class=RawBSONDocument))
    for document in raw.aggregate(pipeline):
        yield document, LazyRecord(partial(decode, document[field].raw, codec_options))
