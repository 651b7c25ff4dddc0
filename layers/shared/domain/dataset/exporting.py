"""Exporting the data set (`python -m ops catalog export`): the database's reference data as the file
holds it, read in one snapshot, with where and when it was made (`exportedFrom`)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pymongo.client_session import ClientSession

from core import clock
from data import counters
from data.mongo import Document
from domain.dataset import store
from domain.dataset.models import FORMAT_VERSION, DataSet, ExportedFrom
from domain.dataset.reading import DataSetRefused, location
from domain.dataset.sections import read_stored, record_of
from domain.orders.store import order_events


def data_set_of(stored: dict[str, list[Document]]) -> DataSet:
    """The file holding these stored documents (by section; a section left out stays out)."""
    raw: dict[str, Any] = {"format": FORMAT_VERSION}
    for section, docs in stored.items():
        if section == "contacts":
            raw[section] = record_of(section, docs[0]) if docs else None
        else:
            raw[section] = [record_of(section, doc) for doc in docs]
    try:
        return DataSet.model_validate(raw)
    except ValidationError as error:  # the documents hold what the file format cannot say
        raise DataSetRefused(problems=[f"{location(e['loc'])}: {e['msg']} (stored)" for e in error.errors()]) from None


def export_data_set() -> DataSet:
    """The whole reference data set of the database, as the file holds it, with the database's id, change
    version and order events (`exportedFrom`), all read in one transaction (one snapshot)."""

    def work(session: ClientSession) -> DataSet:
        database, version = counters.change_version(session=session)
        mark = ExportedFrom(
            database=database, changeVersion=version, orderEvents=order_events(session=session), at=clock.now()
        )
        return data_set_of(read_stored(session)).model_copy(update={"exportedFrom": mark})

    return store.replace_in_transaction(work)
