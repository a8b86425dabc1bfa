"""Tuning-log records: one JSON line per (compilation configuration, workload)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tcfg._base.errors import TargetError, TargetSyntaxError
from tcfg._services.config import CompilationConfig

if TYPE_CHECKING:
    from tcfg._model.target import Target
    from tcfg._registry.registry import Registry

__all__ = ["TuningRecord"]


@dataclass(frozen=True)
class TuningRecord:
    """What was tuned (``workload``), for which configuration, and what was measured.

    ``workload`` and ``result`` are JSON objects chosen by the tuner (operator name,
    shapes, schedule, latency, ...); the line stores them with sorted keys.
    """

    config: CompilationConfig
    workload: Mapping[str, Any]
    result: Mapping[str, Any] = field(default_factory=dict)

    def to_line(self) -> str:
        """The record as one line of JSON (no newline); :meth:`from_line` reads it back."""
        data = {"config": self.config.export(), "workload": self.workload, "result": self.result}
        try:
            return json.dumps(data, sort_keys=True, allow_nan=False, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise TargetError(f"tuning record is not JSON data: {exc}") from None

    def target(self) -> Target:
        """What the record was tuned for, as one target: the configuration's only device (with its
        host), or its composite when it has several devices, an executor or a runtime."""
        config = self.config
        if len(config.targets) == 1 and config.executor is None and config.runtime is None:
            return config.targets[0]
        return config.to_target()

    def runs_on(self, machine: Target) -> bool:
        """Whether code built for this record's :meth:`target` runs on ``machine`` (:meth:`tcfg.Target.runs_on`)."""
        return self.target().runs_on(machine)

    @staticmethod
    def running_on(records: Iterable[TuningRecord], machine: Target) -> list[TuningRecord]:
        """The ``records`` whose target runs on ``machine``, in their order: what a tuning log offers
        that machine. Anything in ``records`` that is not a TuningRecord is a :class:`TargetError`."""
        found = []
        for index, record in enumerate(records):
            if not isinstance(record, TuningRecord):
                raise TargetError(f"records[{index}] is {type(record).__name__}, not a TuningRecord")
            if record.runs_on(machine):
                found.append(record)
        return found

    @classmethod
    def from_line(cls, line: str, registry: Registry | None = None) -> TuningRecord:
        """The record written by :meth:`to_line`."""
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TargetSyntaxError(f"tuning record {line[:80]!r} is not JSON: {exc.msg}") from None
        if not isinstance(data, dict) or not {"config", "workload"} <= data.keys():
            raise TargetSyntaxError(f"tuning record {line[:80]!r} needs 'config' and 'workload'")
        workload, result = data["workload"], data.get("result", {})
        if not isinstance(workload, dict) or not isinstance(result, dict):
            raise TargetSyntaxError(f"tuning record {line[:80]!r}: 'workload' and 'result' must be objects")
        return cls(CompilationConfig(data["config"], registry=registry), workload, result)
